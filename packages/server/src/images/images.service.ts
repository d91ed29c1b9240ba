import { randomUUID } from 'node:crypto';
import { ROLES, IMAGE_TYPES, MAX_IMAGE_BYTES, type ImageAnswer } from '@flowbox/shared';
import {
  requireCustomerManage,
  requireCustomerRead,
  requireRole,
  requireSiteManage,
  requireSiteRead,
  type Actor,
} from '../access/access.ts';
import { findBuildingRow, findSiteRow } from '../buildings/index.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { findCustomer } from '../customers/index.ts';
import { AppError, notFound } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import { fileDownload, type FileDownload } from '../files/files.http.ts';
import { findFile, writeFile } from '../files/files.store.ts';
import type { BuildingPath, SitePath } from '../http/params.ts';
import { detectImageType } from './image-type.ts';
import {
  deleteImage,
  deleteImagesUnder,
  findImage,
  imageIdOf,
  imageUrl,
  insertImage,
  setOwnerImage,
  type ImageOwner,
} from './images.repo.ts';

/** Reads the uploaded file; called only once the caller is known to be allowed (no upload is buffered otherwise). */
export type Upload = () => Promise<Buffer>;

/**
 * Logos, plans and pictures (issue #3): uploaded by whoever may edit the record they belong to,
 * read by whoever may read it. Their bytes are stored files (files/, shared by every instance); rows
 * in `images` say whose they are.
 */
export class ImagesService {
  constructor(private readonly ctx: Context) {}

  /** The images of a customer, site or building being deleted, and their files, in its transaction. */
  deleteUnder(tx: Db, owner: { customerId: string } | { siteId: string } | { buildingId: string }) {
    return deleteImagesUnder(tx, owner);
  }

  /** Customer managers keep their own customer's logo, as they keep its contacts. */
  async replaceCustomerLogo(actor: Actor, customerId: string, upload: Upload): Promise<ImageAnswer> {
    requireRole(actor, ROLES.flovea_manager, ROLES.customer_manager);
    requireCustomerRead(actor, customerId);
    const customer = await findCustomer(this.ctx.db, customerId);
    if (!customer) throw notFound();
    return this.replace(actor, { object: 'customer', field: 'logo', customerId }, customer, upload);
  }

  async replaceSiteImage(
    actor: Actor,
    path: SitePath,
    field: 'logo' | 'plan',
    upload: Upload,
  ): Promise<ImageAnswer> {
    requireCustomerManage(actor, path.customerId, 'sites.manage');
    const site = await findSiteRow(this.ctx.db, path.customerId, path.siteId);
    if (!site) throw notFound();
    return this.replace(actor, { object: 'site', field, ...path }, site, upload);
  }

  async replaceBuildingImage(
    actor: Actor,
    path: BuildingPath,
    field: 'plan' | 'picture',
    upload: Upload,
  ): Promise<ImageAnswer> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    const building = await findBuildingRow(this.ctx.db, path);
    if (!building) throw notFound();
    return this.replace(actor, { object: 'building', field, ...path }, building, upload);
  }

  /** An image, for whoever may read the record it belongs to. */
  async read(actor: Actor, imageId: string): Promise<FileDownload> {
    const image = await findImage(this.ctx.db, imageId);
    if (!image) throw notFound();
    if (image.siteId) requireSiteRead(actor, image.customerId, image.siteId);
    else requireCustomerRead(actor, image.customerId);
    // No file: an image whose file was missing when DATA_DIR/uploads was imported (images.import.ts).
    const file = image.fileId ? await findFile(this.ctx.db, image.fileId) : undefined;
    if (!file) throw notFound();
    return fileDownload(this.ctx.db, file);
  }

  /** Stores the new file, points the record at it and deletes the old one, in one transaction. */
  private async replace(
    actor: Actor,
    owner: ImageOwner,
    current: { id: string; name: string } & Partial<Record<ImageOwner['field'], string | null>>,
    upload: Upload,
  ): Promise<ImageAnswer> {
    const bytes = await upload();
    const extension = detectImageType(bytes);
    if (!extension) throw new AppError('errors.image_type');
    const id = randomUUID();
    const url = imageUrl(id);
    const previousId = imageIdOf(current[owner.field] ?? null);
    const contentType = IMAGE_TYPES[extension];
    await this.ctx.db.transaction(async (tx) => {
      const file = await writeFile(tx, bytes, { contentType, maxBytes: MAX_IMAGE_BYTES });
      await insertImage(tx, {
        id,
        customerId: owner.customerId,
        siteId: 'siteId' in owner ? owner.siteId : null,
        buildingId: 'buildingId' in owner ? owner.buildingId : null,
        fileId: file.id,
        contentType,
        byteSize: bytes.length,
      });
      await setOwnerImage(tx, owner, url);
      if (previousId) await deleteImage(tx, previousId);
      await recordChange(tx, this.ctx.now(), actor, {
        action: 'updated',
        object: owner.object,
        objectId: current.id,
        objectLabel: current.name,
        scope: {
          customerId: owner.customerId,
          siteId: 'siteId' in owner ? owner.siteId : null,
          buildingId: 'buildingId' in owner ? owner.buildingId : null,
        },
        changedFields: [owner.field],
      });
    });
    return { url };
  }
}
