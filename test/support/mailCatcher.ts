/**
 * A real SMTP server for tests (npm `smtp-server`), on a free port of 127.0.0.1: it accepts every mail, parses it
 * (mailparser) and keeps it for the test to read. Nothing is mocked at the nodemailer level.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './freePort';

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  mails: CaughtMail[];
  /** Waits until a mail to `to` whose subject matches arrives; resolves it. */
  waitFor(to: string, subject: RegExp, timeoutMs?: number): Promise<CaughtMail>;
  /** Refuses (true) or accepts (false) every mail from now on, as a server that is down would. */
  refuse(refusing: boolean): void;
  close(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(refusing ? Object.assign(new Error('Service unavailable'), { responseCode: 421 }) : undefined);
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed: ParsedMail) => {
          const to = Array.isArray(parsed.to) ? parsed.to.map((each) => each.text).join(', ') : (parsed.to?.text ?? '');
          mails.push({
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, subject, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((each) => each.to.includes(to) && subject.test(each.subject));
        if (mail) return mail;
        if (Date.now() > deadline)
          throw new Error(`No mail to ${to} matching ${subject}; got: ${mails.map((each) => `${each.to}: ${each.subject}`).join('; ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    refuse(value) {
      refusing = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
