import { Button, ErrorText } from './panelStyles';

/** A page's failed read (a console screen, the partner page): the server's words, and "Try again" when it may read again. */
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
