/** The text in the form's field `name`: '' when the field is missing or holds a file instead of text. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
