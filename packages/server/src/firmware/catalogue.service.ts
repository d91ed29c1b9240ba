import {
  FIRMWARE_MAX_BYTES,
  firmwareFileName,
  firmwareNameMatches,
  type EventAction,
  type FirmwareImage,
  type FirmwareImageCreateSchema,
  type FirmwareImagePatchSchema,
  type FirmwareImagesQuerySchema,
  type FirmwareImageStatus,
  type FlowboxModel,
} from '@flowbox/shared';
import type { z } from 'zod';
import {
  firmwareReaderOf,
  isManager,
  isProvider,
  isReleasedTo,
  requireProviderManage,
  type Actor,
  placeScopeOf,
} from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, forbidden, notFound } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import { writeFile } from '../files/files.store.ts';
import {
  findCatalogueImage,
  insertFirmwareImage,
  installedCounts,
  listCatalogueImages,
  lockCatalogue,
  modelsOfVersion,
  setReleasedCustomers,
  sha256Taken,
  unknownCustomers,
  updateFirmwareImage,
  type CatalogueImage,
  type CatalogueReader,
} from './catalogue.repo.ts';
import { changedFields, limitedTo, notesOf, statusAction, toApiImage } from './catalogue.rules.ts';

type CreateInput = z.infer<typeof FirmwareImageCreateSchema>;
type PatchInput = z.infer<typeof FirmwareImagePatchSchema>;
type ImagesQuery = z.infer<typeof FirmwareImagesQuerySchema>;

/** An uploaded image as the route hands it over: its name, its declared fields, its bytes to come. */
export type FirmwareUpload = {
  fileName: string;
  input: CreateInput;
  bytes: AsyncIterable<Buffer>;
  /** Reads and drops what is left of the upload, so that the client gets its answer once it has sent it. */
  discard: () => void;
};

/** Opens the upload; called only once the caller is known to be allowed (nothing is read otherwise). */
export type OpenUpload = () => Promise<FirmwareUpload>;

/** Customer and site managers see what is usable: withdrawn images are the provider's business. */
const USABLE: FirmwareImageStatus[] = ['active', 'deprecated'];

/**
 * The firmware catalogue (docs/firmware.md "Catalogue"): provider managers upload, release,
 * deprecate and withdraw images; every manager reads those released to its customer.
 */
export class FirmwareCatalogueService {
  constructor(private readonly ctx: Context) {}

  /**
   * The images a flowbox of this customer and model may take (released to the customer or to all,
   * not withdrawn), as `actor` reads them: a flowbox card's versions, with the catalogue's own
   * release lists and installed counts, in a fixed few statements whatever the catalogue's size.
   */
  async usableBy(actor: Actor, customerId: string, model: FlowboxModel): Promise<FirmwareImage[]> {
    const images = await listCatalogueImages(
      this.ctx.db,
      { releasedTo: customerId, statuses: USABLE },
      { model },
    );
    return this.toApi(actor, images);
  }

  async list(actor: Actor, query: ImagesQuery): Promise<FirmwareImage[]> {
    const rows = await listCatalogueImages(this.ctx.db, readerOf(actor), query);
    return this.toApi(actor, rows);
  }

  async get(actor: Actor, id: string): Promise<FirmwareImage> {
    const [image] = await this.toApi(actor, [await this.visible(actor, id)]);
    return image!;
  }

  /**
   * Stores an image: its name must say what the form declares, and it must be new (no version of
   * one of its models, no same bytes) and of 1 byte to FIRMWARE_MAX_BYTES. Refused, nothing stays.
   */
  async upload(actor: Actor, open: OpenUpload): Promise<FirmwareImage> {
    requireProviderManage(actor, 'firmware.update');
    const upload = await open();
    try {
      const image = await this.store(actor, upload);
      return (await this.toApi(actor, [image]))[0]!;
    } catch (error) {
      upload.discard();
      throw error;
    }
  }

  async patch(actor: Actor, id: string, input: PatchInput): Promise<FirmwareImage> {
    requireProviderManage(actor, 'firmware.update');
    await this.ctx.db.transaction(async (tx) => {
      // Read under the image's lock: a change read before a withdrawal committed (another request,
      // another instance) would otherwise write over it and bring the image back.
      const image = await findCatalogueImage(tx, id, { lock: true });
      if (!image) throw notFound();
      if (input.status !== undefined && input.status !== image.status && image.status === 'withdrawn')
        throw new AppError('errors.firmware_withdrawn');
      if (Array.isArray(input.released_to)) await this.requireCustomers(tx, input.released_to);
      const changed = changedFields(image, input);
      const statusChanged = input.status !== undefined && input.status !== image.status;
      const now = this.ctx.now();
      await updateFirmwareImage(
        tx,
        id,
        {
          notesEn: notesOf(input.notes_en),
          notesFr: notesOf(input.notes_fr),
          status: input.status,
          releasedToAll: input.released_to === undefined ? undefined : input.released_to === 'all',
        },
        now,
      );
      if (input.released_to !== undefined)
        await setReleasedCustomers(
          tx,
          id,
          input.released_to === 'all' ? [] : [...new Set(input.released_to)],
        );
      // The customers the change concerns: those released to, before it and after it.
      const customers = [
        ...(image.releasedToAll ? [] : image.customerIds),
        ...(Array.isArray(input.released_to) ? input.released_to : []),
      ];
      const others = changed.filter((field) => field !== 'status');
      if (others.length > 0) await record(tx, now, actor, 'updated', image, others, customers);
      if (statusChanged)
        await record(tx, now, actor, statusAction(input.status!), image, ['status'], customers);
    });
    return this.get(actor, id);
  }

  private async store(actor: Actor, upload: FirmwareUpload): Promise<CatalogueImage> {
    const { input } = upload;
    const models = [...input.models];
    if (!firmwareNameMatches(upload.fileName, { models, version: input.version }))
      throw new AppError('errors.firmware_naming', { expected: firmwareFileName(models, input.version) });
    const customerIds = input.released_to === 'all' ? [] : [...new Set(input.released_to)];
    await this.requireCustomers(this.ctx.db, customerIds);
    // Checked again under the lock below; this spares reading a whole upload bound to be refused.
    await this.requireNewVersion(this.ctx.db, input.version, models);
    return this.ctx.db.transaction(async (tx) => {
      const file = await writeFile(tx, limitedTo(upload.bytes, FIRMWARE_MAX_BYTES), {
        contentType: 'application/octet-stream',
        maxBytes: FIRMWARE_MAX_BYTES,
      });
      if (file.byteSize === 0) throw new AppError('errors.firmware_empty');
      await lockCatalogue(tx);
      await this.requireNewVersion(tx, input.version, models);
      if (await sha256Taken(tx, file.sha256)) throw new AppError('errors.firmware_duplicate');
      const now = this.ctx.now();
      const image = await insertFirmwareImage(
        tx,
        {
          fileId: file.id,
          version: input.version,
          models,
          fileName: upload.fileName,
          size: file.byteSize,
          sha256: file.sha256,
          notesEn: input.notes_en || null,
          notesFr: input.notes_fr || null,
          status: 'active',
          releasedToAll: input.released_to === 'all',
          uploadedBy: actor.id,
          uploadedByName: actor.name,
          createdAt: now,
          updatedAt: now,
        },
        customerIds,
      );
      await record(tx, now, actor, 'created', image, [], customerIds);
      return image;
    });
  }

  private async requireNewVersion(db: Db, version: string, models: FlowboxModel[]): Promise<void> {
    const taken = await modelsOfVersion(db, version);
    if (models.some((model) => taken.includes(model))) throw new AppError('errors.firmware_duplicate');
  }

  private async requireCustomers(db: Db, ids: string[]): Promise<void> {
    const unknown = await unknownCustomers(db, ids);
    if (unknown.length > 0)
      throw new AppError('errors.validation', {}, [{ path: 'released_to', message: 'validation.invalid' }]);
  }

  /** The image, if the caller may read it; otherwise the refusal its scope gets (docs/permissions.md). */
  private async visible(actor: Actor, id: string): Promise<CatalogueImage> {
    const image = await findCatalogueImage(this.ctx.db, id);
    if (isProvider(actor)) {
      if (!image) throw notFound();
      return image;
    }
    if (!isManager(actor)) throw forbidden();
    const released = image !== undefined && USABLE.includes(image.status) && isReleasedTo(actor, image);
    if (!released) throw forbidden();
    return image;
  }

  private async toApi(actor: Actor, images: CatalogueImage[]): Promise<FirmwareImage[]> {
    const counts = await installedCounts(
      this.ctx.db,
      images.map((i) => i.id),
      placeScopeOf(actor),
    );
    return images.map((image) => toApiImage(image, actor, counts.get(image.id) ?? 0));
  }
}

function readerOf(actor: Actor): CatalogueReader {
  // Firmware is managers' business (docs/permissions.md): no plumber's, no end user's.
  const releasedTo = firmwareReaderOf(actor);
  return releasedTo === 'any' ? { releasedTo } : { releasedTo, statuses: USABLE };
}

/**
 * Catalogue lines (docs/firmware.md "Activity log"): an image released to every customer is the
 * provider's catalogue, in no customer, like pricing plans; one released to some customers names
 * each of them (a line in each one's scope, so each one's activity log shows it).
 */
async function record(
  db: Db,
  at: Date,
  actor: Actor,
  action: EventAction,
  image: CatalogueImage,
  changed: string[],
  customerIds: readonly string[],
): Promise<void> {
  const customers = customerIds.length > 0 ? [...new Set(customerIds)] : [null];
  for (const customerId of customers)
    await recordChange(db, at, actor, {
      action,
      object: 'firmware_image',
      objectId: image.id,
      objectLabel: image.fileName,
      scope: { customerId },
      changedFields: changed,
    });
}
