import styled from 'styled-components';
import { mailMachine } from '../../machines/mailMachine';
import { colors, radii } from '../theme';
import { Button, Card, ErrorText, Heading, Muted, StackedTable } from '../shared/panelStyles';
import { Tooltip } from '../shared/Tooltip';
import { MailText } from './mailText';
import { useConsoleMachine } from './useConsoleMachine';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The outbox's mail (/admin/mail), newest first: sent (its text opens beneath it), waiting to be retried, failed,
 * dropped (a link asked for an email with no subscription), or held (no SMTP_URL) with its text shown; each link's
 * token hidden. A banner says when
 * mail is held rather than sent; a search finds a recipient's mails; links in a text open. A held or failed mail can
 * be sent again: it is rendered afresh, with new links, once SMTP_URL is set. Driven by src/machines/mailMachine.ts.
 */
export function AdminMail({ onUnauthorised }: { onUnauthorised: () => void }) {
  const [snapshot, send] = useConsoleMachine(mailMachine, onUnauthorised);
  const { mails, delivery, search, resending, error } = snapshot.context;
  const loading = snapshot.matches('loading') || snapshot.matches('waiting');
  return (
    <>
      <Heading>Mail</Heading>
      {delivery === 'held' && (
        <Banner role="note" aria-label="Mail is not being sent">
          <strong>Mail is not being sent.</strong> SMTP_URL is not set, so every mail is held here instead of going out: buyers receive
          nothing. Set SMTP_URL (docs/operations.md) and re-send the held mails.
        </Banner>
      )}
      <Search role="search">
        <label htmlFor="mail-search">Search by recipient</label>
        <input
          id="mail-search"
          type="search"
          value={search}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          aria-describedby="mail-search-hint"
          onChange={(event) => send({ type: 'SEARCH_CHANGED', search: event.currentTarget.value })}
        />
        <Muted id="mail-search-hint">Part of an email address, for example ada@ or example.com.</Muted>
      </Search>
      {error && <ErrorText role="alert">{error}</ErrorText>}
      {/* A mail's status changes after the page loaded (sent, retried, failed): the owner looks again. */}
      <Button type="button" disabled={!snapshot.matches('ready')} onClick={() => send({ type: 'RELOAD' })}>
        Refresh
      </Button>
      <Card aria-busy={loading}>
        <StackedTable aria-label="Mail">
          <thead>
            <tr>
              <th>Created</th>
              <th>Mail</th>
              <th>Status</th>
              <th>Text</th>
            </tr>
          </thead>
          <tbody>
            {mails.map((mail) => (
              <tr key={mail.id}>
                <td data-label="Created">{when(mail.createdAt)}</td>
                <td data-label="Mail">
                  {mail.rendered ? mail.rendered.subject : mail.topic.replace(/_/g, ' ')}
                  {mail.recipient && <> → {mail.recipient}</>}
                  {mail.transactionId && (
                    <>
                      <br />
                      <Muted>{mail.transactionId}</Muted>
                    </>
                  )}
                </td>
                <td data-label="Status">
                  {mail.status}
                  {mail.lastError && (
                    <Muted>
                      {' '}
                      ({mail.attempts} attempts: {mail.lastError})
                    </Muted>
                  )}
                  {(mail.status === 'held' || mail.status === 'failed') && (
                    <>
                      <br />
                      <Tooltip id={`resend-hint-${mail.id}`} text="Sends this mail again, written afresh with new links">
                        {(describedBy) => (
                          <Button
                            type="button"
                            $variant="plain"
                            disabled={resending !== null}
                            aria-label={`Re-send mail ${mail.id}`}
                            aria-describedby={describedBy}
                            onClick={() => send({ type: 'RESEND', id: mail.id })}
                          >
                            {resending === mail.id ? 'Sending…' : 'Re-send'}
                          </Button>
                        )}
                      </Tooltip>
                    </>
                  )}
                </td>
                <td data-label={mail.rendered ? 'Text' : undefined}>
                  {mail.rendered &&
                    (mail.status === 'held' ? (
                      <Text>
                        <MailText text={mail.rendered.text} />
                      </Text>
                    ) : (
                      <details>
                        <summary aria-label={`Open the mail “${mail.rendered.subject}” to ${mail.rendered.to}`}>Open the mail</summary>
                        <Text>
                          <MailText text={mail.rendered.text} />
                        </Text>
                      </details>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </StackedTable>
        {!loading && mails.length === 0 && <p>{search.trim() ? `No mail to a recipient matching "${search.trim()}".` : 'No mail yet.'}</p>}
      </Card>
    </>
  );
}

const Banner = styled.div`
  margin: 0 0 16px;
  padding: 12px 16px;
  border: 1px solid #b45309;
  border-left-width: 6px;
  border-radius: ${radii.medium};
  background: #fffbeb;
  color: ${colors.ink};
`;

const Search = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 16px;
  max-width: 480px;
  font-size: 0.875rem;

  label {
    font-weight: 600;
    color: ${colors.ink};
  }
  input {
    min-height: 44px;
    padding: 8px 10px;
    border: 1px solid ${colors.muted};
    border-radius: ${radii.small};
    font: inherit;
    color: ${colors.ink};
    background: ${colors.surface};
  }
`;

const Text = styled.pre`
  margin: 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  font-size: 0.8125rem;
  max-width: 60ch;

  a {
    color: ${colors.brand};
  }
`;
