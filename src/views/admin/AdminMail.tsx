import { useState } from 'react';
import { adminApi } from '../../api/adminApi';
import { ApiError } from '../../api/client';
import { Button, Card, ErrorText, Heading, Muted, Table } from '../shared/panelStyles';
import { useAdminData } from './useAdminData';

/**
 * The outbox's mail, newest first: sent, waiting to be retried, failed, dropped (a link asked for an email with
 * no subscription), or held (no SMTP_URL) with its text, each link's token hidden. A held or failed mail can be
 * sent again: it is rendered afresh, with new links, once SMTP_URL is set.
 */
export function AdminMail({ onUnauthorised }: { onUnauthorised: () => void }) {
  const { data, error, reload } = useAdminData(() => adminApi.mail(), 'mail', onUnauthorised);
  const [resendError, setResendError] = useState<string>();
  const resend = (id: number) =>
    adminApi.resendMail(id).then(
      () => {
        setResendError(undefined);
        reload();
      },
      (failure: unknown) => {
        if (failure instanceof ApiError && failure.status === 401) onUnauthorised();
        else setResendError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  return (
    <>
      <Heading>Mail</Heading>
      {(error || resendError) && <ErrorText role="alert">{resendError ?? error}</ErrorText>}
      <Card>
        <Table aria-label="Mail">
          <thead>
            <tr>
              <th>Created</th>
              <th>Mail</th>
              <th>Status</th>
              <th>Text (held mails)</th>
            </tr>
          </thead>
          <tbody>
            {data?.mails.map((mail) => (
              <tr key={mail.id}>
                <td>{new Date(mail.createdAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}</td>
                <td>
                  {mail.rendered ? `${mail.rendered.subject} → ${mail.rendered.to}` : mail.topic.replace(/_/g, ' ')}
                  <br />
                  <Muted>{mail.transactionId}</Muted>
                </td>
                <td>
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
                      <Button type="button" $variant="plain" aria-label={`Re-send mail ${mail.id}`} onClick={() => void resend(mail.id)}>
                        Re-send
                      </Button>
                    </>
                  )}
                </td>
                <td>{mail.rendered && <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{mail.rendered.text}</pre>}</td>
              </tr>
            ))}
          </tbody>
        </Table>
        {data?.mails.length === 0 && <p>No mail yet.</p>}
      </Card>
    </>
  );
}
