import { Transform } from 'node:stream';
import { FIRMWARE_ACTIVE_STATES } from '@flowbox/shared';
import type { Context } from '../context.ts';
import { AppError, forbidden } from '../errors.ts';
import { etagOf, type FileDownload } from '../files/files.http.ts';
import { findFile } from '../files/files.store.ts';
import { rangeAnswer } from '../files/ranges.ts';
import { deviceAuthenticator } from '../flowboxes/index.ts';
import { readDownloadToken } from './download-token.ts';
import { recordDownloadStart } from './updates.moves.ts';
import { findUpdateForDownload } from './updates.repo.ts';
import { ImageCache } from './image-cache.ts';

/** A device's GET of its image: the URL's token, its HTTP Basic credentials, its range headers. */
export type DownloadRequest = {
  token: string;
  credentials: { serial: string; secret: string } | null;
  headers: { range?: string | undefined; ifRange?: string | undefined };
  /** A HEAD (the same checks, no bytes) is not a download of the update. */
  sendsBytes: boolean;
};

/** How downloads ended, for `/metrics`: served whole or from a byte on, or refused and why. */
export const DOWNLOAD_OUTCOMES = ['whole', 'resumed', 'unauthorized', 'forbidden', 'gone'] as const;
export type DownloadOutcome = (typeof DOWNLOAD_OUTCOMES)[number];

const OUTCOME_OF: Partial<Record<string, DownloadOutcome>> = {
  'errors.device_auth_failed': 'unauthorized',
  'errors.forbidden': 'forbidden',
  'errors.firmware_download_gone': 'gone',
};

/**
 * Firmware downloads (docs/firmware.md "Device protocol" 3): the device proves who it is with its
 * own credentials, the URL's token names it, its update and the image, and the update must still be
 * downloading. Each request counts as a download of the update (a resume when it starts past byte
 * 0); too many block the update.
 */
export class FirmwareDownloadService {
  readonly counters = {
    downloads: Object.fromEntries(DOWNLOAD_OUTCOMES.map((o) => [o, 0])) as Record<DownloadOutcome, number>,
    /** Bytes of images sent to devices. */
    bytes: 0,
  };
  private readonly authenticate;
  private readonly images = new ImageCache();

  constructor(private readonly ctx: Context) {
    this.authenticate = deviceAuthenticator(ctx.db);
  }

  /** Whether these are the device's own serial and secret (the rate limit's key, download.routes.ts). */
  async isDevice(serial: string, secret: string): Promise<boolean> {
    return (await this.authenticate({ role: 'device', serial }, secret)) === 'ok';
  }

  async open(request: DownloadRequest): Promise<FileDownload> {
    try {
      const { download, fromByte } = await this.checked(request);
      if (request.sendsBytes) this.counters.downloads[fromByte > 0 ? 'resumed' : 'whole'] += 1;
      return { file: download.file, read: (range) => this.counted(download.read(range)) };
    } catch (error) {
      const outcome = error instanceof AppError ? OUTCOME_OF[error.code] : undefined;
      if (outcome) this.counters.downloads[outcome] += 1;
      throw error;
    }
  }

  private async checked(request: DownloadRequest): Promise<{ download: FileDownload; fromByte: number }> {
    const { credentials } = request;
    if (!credentials || !(await this.isDevice(credentials.serial, credentials.secret)))
      throw new AppError('errors.device_auth_failed');
    const now = this.ctx.now();
    const claims = readDownloadToken(request.token, this.ctx.config.jwtSecret);
    // Another device's genuine token is refused like a forged one: it opens nothing to this device.
    if (!claims || claims.serial !== credentials.serial) throw forbidden();
    // Its own, but past its lifetime: the update's download window is over (the timeout job ends
    // the update), as the device is told of any update no longer downloading.
    if (claims.expiresAt <= now) throw new AppError('errors.firmware_download_gone');
    const update = await findUpdateForDownload(this.ctx.db, claims.updateId);
    // A genuine token whose update is gone (its flowbox removed) will never work again.
    if (!update) throw new AppError('errors.firmware_download_gone');
    if (update.serial !== claims.serial || update.imageId !== claims.imageId) throw forbidden();
    if (!(FIRMWARE_ACTIVE_STATES as readonly string[]).includes(update.state))
      throw new AppError('errors.firmware_download_gone');
    const file = await findFile(this.ctx.db, update.fileId);
    if (!file) throw new AppError('errors.firmware_download_gone');
    const answer = rangeAnswer(file.byteSize, request.headers, etagOf(file));
    const fromByte = answer.status === 206 ? answer.start : 0;
    if (request.sendsBytes && !(await recordDownloadStart(this.ctx.db, update.id, fromByte, now)))
      throw new AppError('errors.firmware_download_gone');
    return { download: await this.images.download(this.ctx.db, file), fromByte };
  }

  /** The bytes as they leave for the device, counted. */
  private counted(stream: NodeJS.ReadableStream): Transform {
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.counters.bytes += chunk.length;
        done(null, chunk);
      },
    });
    stream.on('error', (error) => counter.destroy(error));
    return stream.pipe(counter);
  }
}
