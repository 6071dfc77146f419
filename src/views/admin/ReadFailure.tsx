import { Button, ErrorText } from '../shared/panelStyles';

/** A console screen's failed read: the server's words, and "Try again" when the screen may read again. */
export function ReadFailure({ error, onRetry }: { error: string; onRetry?: () => void }) {
  return (
    <ErrorText role="alert">
      {error}{' '}
      {onRetry && (
        <Button type="button" onClick={onRetry}>
          Try again
        </Button>
      )}
    </ErrorText>
  );
}
