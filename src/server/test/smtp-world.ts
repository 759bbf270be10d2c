import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it: envelope, a few headers, and the raw message. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  messageId: string;
  raw: string;
}

/**
 * A real SMTP server in the test process (the `smtp-server` package, speaking the protocol nodemailer talks):
 * it keeps what arrives, and can be made to refuse every connection (an outage) until told otherwise.
 */
export class SmtpWorld {
  readonly received: ReceivedMail[] = [];
  /** While set, every connection is refused (421): the relay is down. */
  down = false;
  /** While set, a mail's data is read but never answered: the sender hangs mid-send (its mail is not accepted). */
  stalling = false;
  /** Mails whose data began while stalling (never accepted). */
  stalled = 0;
  /**
   * While set, each mail's data is read, then held until this resolves, then accepted: a slow relay (a test moves
   * its clock on here, or runs another worker while a mail is on its way).
   */
  onMail: ((mail: ReceivedMail) => Promise<void> | void) | undefined;
  private readonly server: SMTPServer;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      // Down: new connections are refused, and so is every mail on a connection already open (a pooled one).
      onConnect: (_session, callback) => callback(this.refusal()),
      onMailFrom: (_address, _session, callback) => callback(this.refusal()),
      onData: (stream, session, callback) => {
        if (this.stalling) {
          this.stalled++;
          stream.resume(); // read, never answered: no 250, so the mail is not accepted
          return;
        }
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: header(raw, 'Subject'),
            messageId: header(raw, 'Message-ID'),
            raw,
          };
          // Accepted (and kept) once the relay is done taking its time.
          void Promise.resolve(this.onMail?.(mail)).then(
            () => {
              this.received.push(mail);
              callback();
            },
            (error: unknown) => callback(error as Error),
          );
        });
      },
    });
  }

  private refusal(): Error | undefined {
    if (!this.down) return undefined;
    const error = new Error('Service not available, try again later') as Error & { responseCode: number };
    error.responseCode = 421;
    return error;
  }

  /** Listens on a free loopback port; the SMTP_URL to give the app. */
  async start(port = 0): Promise<string> {
    // A sender that dies mid-mail resets its connection: that is what some tests do, not a failure of the server.
    this.server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') throw error;
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const { port: bound } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${bound}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The mails to `address`. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address));
  }
}

/** A header's value (unfolded, its MIME encoded-words decoded), or ''. */
export function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? decodeWords(line.slice(name.length + 1).trim()) : '';
}

/** RFC 2047: '=?UTF-8?Q?Dal_=C3=97_2?=' → 'Dal × 2' (adjacent encoded words join without their space). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}
