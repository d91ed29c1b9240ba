import { isIPv6, type Server, type Socket } from 'node:net';

type Logger = { warn: (obj: object, msg: string) => void };

export type ConnectionLimit = {
  /** Admits the socket, or destroys it when its address already holds the maximum. */
  admit: (socket: Socket) => boolean;
  /** Connections refused since start. */
  readonly refused: number;
};

/**
 * Caps the simultaneous connections of one remote address on a listener (issue #13 item 6: 19,900
 * idle connections from one client took HTTP and MQTT away from everyone for 75 s). A connection
 * beyond the cap is closed at once, before a byte of it is read; the others of that address, and
 * every other address, go on. Devices or browsers behind one NAT share its address: the cap is
 * theirs together (docs/reliability.md "Connection floods and timeouts").
 *
 * An IPv6 client holds a whole /64 (SLAAC, privacy addresses), so it counts as one address.
 * Said once in the log per address until its connections are all gone, not once per refusal.
 */
export function connectionLimit(listener: string, max: number, log: Logger): ConnectionLimit {
  const open = new Map<string, number>();
  const announced = new Set<string>();
  let refused = 0;
  return {
    admit: (socket) => {
      const address = addressKey(socket.remoteAddress);
      const count = open.get(address) ?? 0;
      if (count >= max) {
        refused += 1;
        if (!announced.has(address)) {
          announced.add(address);
          log.warn(
            { listener, address, limit: max },
            'too many connections from one address; refusing more until some close',
          );
        }
        socket.destroy();
        return false;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) return void open.set(address, left);
        open.delete(address);
        announced.delete(address);
      });
      return true;
    },
    get refused() {
      return refused;
    },
  };
}

/**
 * Applies the limit to a server whose connection handler is not ours (Node's HTTP server): it runs
 * before that handler, which then sees a destroyed socket and lets it go.
 */
export function limitConnections(server: Server, limit: ConnectionLimit): void {
  server.prependListener('connection', (socket: Socket) => void limit.admit(socket));
}

/** The address a connection counts against: IPv4 itself (also when IPv4-mapped), IPv6 its /64. */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
