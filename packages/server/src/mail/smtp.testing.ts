import { createServer, type Server, type Socket } from 'node:net';

export type TestSmtp = {
  url: string;
  /** Messages accepted (answered 250). */
  accepted: () => number;
  /** Messages received, accepted or refused. */
  received: () => number;
  close: () => Promise<void>;
};

/**
 * A minimal SMTP server for tests: accepts every message after `delayMs` (a slow mail relay), and
 * counts them. Enough of RFC 5321 for nodemailer without TLS or authentication.
 */
export function startSlowSmtp(delayMs: number): Promise<TestSmtp> {
  return startTestSmtp({ delayMs });
}

/**
 * The same relay, answering each message (numbered from 0 in the order received) with `answer`'s
 * line: `250 …` accepts it, `451 …` refuses it for now, `550 …` for good.
 */
export async function startTestSmtp(options: {
  delayMs?: number;
  answer?: (message: number) => string;
}): Promise<TestSmtp> {
  const delayMs = options.delayMs ?? 0;
  const answer = options.answer ?? (() => '250 accepted');
  let accepted = 0;
  let received = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let inData = false;
    let buffer = '';
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 slow-smtp ready');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const line = answer(received++);
            setTimeout(() => {
              if (line.startsWith('250')) accepted++;
              reply(line);
            }, delayMs);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 slow-smtp');
        else if (verb === 'DATA') {
          inData = true;
          reply('354 go on');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    accepted: () => accepted,
    received: () => received,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
