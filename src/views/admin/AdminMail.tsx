import { adminApi } from '../../api/adminApi';
import { Card, ErrorText, Heading, Muted, Table } from '../shared/panelStyles';
import { useAdminData } from './useAdminData';

/** The outbox's mail, newest first: sent, waiting to be retried, failed, or held (no SMTP_URL) with its text. */
export function AdminMail({ onUnauthorised }: { onUnauthorised: () => void }) {
  const { data, error } = useAdminData(() => adminApi.mail(), 'mail', onUnauthorised);
  return (
    <>
      <Heading>Mail</Heading>
      {error && <ErrorText role="alert">{error}</ErrorText>}
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
