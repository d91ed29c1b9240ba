import { createHash, type Hash } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

/** The image to fetch, and the device's credentials for HTTP Basic (docs/firmware.md "Download"). */
export type FirmwareTarget = {
  url: string;
  size: number;
  sha256: string;
  serial: string;
  secret: string | undefined;
};

/** Download faults (`firmware-faults.ts`), as the stream applies them. */
export type DownloadFaults = {
  /** Cap on the download rate. */
  bytesPerS?: number;
  /** Each connection is cut once it has brought this many bytes. */
  cutAfterBytes?: number;
  /** The byte at this offset of the image arrives flipped. */
  corruptAt?: number;
};

/** How one HTTP request for the image ended. */
export type AttemptOutcome =
  /** The server sent the whole answer: the image is to be verified. */
  | { kind: 'complete' }
  /** Cut, lost, stalled or a server error: a resume may follow. */
  | { kind: 'interrupted' }
  /** 410: the server has ended this update (failed, cancelled, timed out). */
  | { kind: 'gone' }
  /** Another refusal (401, 403, 404…): asking again will not help. */
  | { kind: 'refused'; status: number }
  /** The device gave up (stopped, or silenced by a fault). */
  | { kind: 'aborted' };

/** A connection that brings nothing for this long is cut and resumed. */
const IDLE_TIMEOUT_MS = 30_000;

/**
 * One image's download over one or more requests. Nothing of the image is kept: each chunk goes
 * through the running sha256 as it arrives, so a thousand devices downloading at once hold a hash
 * state and a socket's buffers each. An interrupted download resumes with `Range: bytes=N-` and
 * `If-Range: <etag>`; a 200 answer means the image changed (or the range was not honoured) and
 * the count starts again from byte 0.
 */
export class FirmwareDownload {
  /** Bytes of the image received and hashed so far. */
  bytes = 0;
  private hash: Hash = createHash('sha256');
  private etag: string | null = null;

  constructor(
    private readonly target: FirmwareTarget,
    private readonly faults: DownloadFaults = {},
  ) {}

  /** Forgets what was received: the next request asks for the whole image. */
  restart(): void {
    this.bytes = 0;
    this.hash = createHash('sha256');
    this.etag = null;
  }

  /** True when what was received has the announced size and sha256. */
  verify(): boolean {
    return this.bytes === this.target.size && this.hash.copy().digest('hex') === this.target.sha256;
  }

  /**
   * One request: from the start, or from `bytes` when a previous one was cut. `onStart` is called
   * once the server answers with the image, `onData` after each chunk with the bytes received.
   */
  attempt(
    signal: AbortSignal,
    onStart: () => void,
    onData: (bytes: number) => void,
  ): Promise<AttemptOutcome> {
    // Without an ETag, a resumed range could splice two different images: start over instead.
    if (this.bytes > 0 && this.etag === null) this.restart();
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${this.target.serial}:${this.target.secret ?? ''}`).toString('base64')}`,
    };
    if (this.bytes > 0 && this.etag !== null) {
      headers.range = `bytes=${this.bytes}-`;
      headers['if-range'] = this.etag;
    }
    const url = new URL(this.target.url);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        resolve(signal.aborted ? { kind: 'aborted' } : outcome);
      };
      const request = client.get(url, { headers, signal }, (response) => {
        const status = response.statusCode ?? 0;
        if (!this.acceptAnswer(response)) {
          response.resume();
          if (status === 410) settle({ kind: 'gone' });
          else if (status >= 500 || status === 206 || status === 416) settle({ kind: 'interrupted' });
          else settle({ kind: 'refused', status });
          return;
        }
        onStart();
        this.receive(request, response, signal, onData, settle);
      });
      request.setTimeout(IDLE_TIMEOUT_MS, () => request.destroy(new Error('the download stalled')));
      request.on('error', () => settle({ kind: 'interrupted' }));
    });
  }

  /**
   * Whether the answer carries the image from where the device stands: a 206 from `bytes`, or a
   * 200 (the whole image: the count starts again). A 206 from elsewhere, or a 416, starts over.
   */
  private acceptAnswer(response: IncomingMessage): boolean {
    const status = response.statusCode ?? 0;
    if (status === 200) {
      this.restart();
    } else if (status === 206) {
      const start = /^bytes (\d+)-/.exec(response.headers['content-range'] ?? '')?.[1];
      if (Number(start) !== this.bytes) {
        this.restart();
        return false;
      }
    } else {
      if (status === 416) this.restart();
      return false;
    }
    const etag = response.headers.etag;
    this.etag = typeof etag === 'string' ? etag : null;
    return true;
  }

  private receive(
    request: http.ClientRequest,
    response: IncomingMessage,
    signal: AbortSignal,
    onData: (bytes: number) => void,
    settle: (outcome: AttemptOutcome) => void,
  ): void {
    const started = performance.now();
    let received = 0;
    let cut = false;
    response.on('data', (chunk: Buffer) => {
      if (cut || signal.aborted) return;
      let data = chunk;
      const cutAfter = this.faults.cutAfterBytes;
      if (cutAfter !== undefined && received + data.length > cutAfter) {
        data = data.subarray(0, cutAfter - received);
        cut = true;
      }
      this.take(data);
      received += data.length;
      onData(this.bytes);
      if (cut || this.bytes > this.target.size) {
        // The simulated network drops the connection: what came so far is kept, the rest resumed.
        request.destroy();
        return;
      }
      this.throttle(response, received, started);
    });
    response.on('close', () => {
      if (this.bytes > this.target.size) settle({ kind: 'complete' });
      else settle(!cut && response.complete ? { kind: 'complete' } : { kind: 'interrupted' });
    });
  }

  /** Hashes a chunk, flipping the corrupt fault's byte when it passes. */
  private take(data: Buffer): void {
    const at = this.faults.corruptAt;
    let chunk = data;
    if (at !== undefined && at >= this.bytes && at < this.bytes + data.length) {
      chunk = Buffer.from(data);
      chunk[at - this.bytes] = (chunk[at - this.bytes] ?? 0) ^ 0xff;
    }
    this.hash.update(chunk);
    this.bytes += chunk.length;
  }

  /** Holds the stream (TCP pushes back on the server) until the rate cap allows what came. */
  private throttle(response: IncomingMessage, received: number, started: number): void {
    const rate = this.faults.bytesPerS;
    if (rate === undefined) return;
    const wait = (received * 1000) / rate - (performance.now() - started);
    if (wait <= 0) return;
    response.pause();
    setTimeout(() => response.resume(), wait);
  }
}
