/** Copies `text` to the clipboard. @throws when the browser refuses (no permission, insecure context). */
export async function copyText(text: string): Promise<void> {
  if (!globalThis.navigator?.clipboard) throw new Error('Clipboard is not available');
  await globalThis.navigator.clipboard.writeText(text);
}
