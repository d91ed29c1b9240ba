import { randomUUID } from 'node:crypto';
import {
  WEBHOOKS_PER_CUSTOMER_MAX,
  type Webhook,
  type WebhookCreate,
  type WebhookDeliveriesPage,
  type WebhookDeliveriesQuery,
  type WebhookDelivery as ApiWebhookDelivery,
  type WebhookUpdate,
  type WebhookWithSecret,
} from '@flowbox/shared';
import { requireWebhooksManage, unknownTo, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import { newWebhookSecret } from './signature.ts';
import {
  addressesOf,
  savableAddress,
  systemLookup,
  webhookSchemeAccepted,
  type LookupAll,
} from './webhook-address.ts';
import { webhookLabel, type WebhookDelivery } from './webhook-delivery.service.ts';
import {
  countWebhooks,
  customerExists,
  deleteWebhook,
  deliveriesPage,
  findWebhook,
  giveUpQueued,
  insertWebhook,
  queueTestEvent,
  updateWebhook,
  webhooksOf,
  type WebhookRow,
} from './webhooks.repo.ts';

/**
 * A customer's webhooks (issue 33, docs/webhooks.md), managed by its customer managers and the
 * provider's managers (access.ts `requireWebhooksManage`): listed, created, changed, deleted, their
 * secret rotated, a test event sent, and their deliveries read. Every change is logged.
 */
export class WebhooksService {
  constructor(
    private readonly ctx: Context,
    private readonly delivery: Pick<WebhookDelivery, 'kick'>,
    private readonly options: { testEndpoints: boolean; lookup?: LookupAll },
  ) {}

  async list(actor: Actor, customerId: string): Promise<{ items: Webhook[] }> {
    await this.enterCustomer(actor, customerId);
    return { items: (await webhooksOf(this.ctx.db, customerId)).map(toApi) };
  }

  async info(actor: Actor, customerId: string, id: string): Promise<Webhook> {
    return toApi(await this.find(actor, this.ctx.db, customerId, id));
  }

  async create(actor: Actor, customerId: string, input: WebhookCreate): Promise<WebhookWithSecret> {
    await this.enterCustomer(actor, customerId);
    await this.requireUrl(input.url);
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      // Counted in the transaction that adds one: two creations at once may pass the limit by one.
      if ((await countWebhooks(tx, customerId)) >= WEBHOOKS_PER_CUSTOMER_MAX)
        throw new AppError('errors.webhook_limit', { max: WEBHOOKS_PER_CUSTOMER_MAX });
      const row = await insertWebhook(tx, {
        customerId,
        url: input.url,
        description: input.description ?? '',
        events: input.events,
        enabled: input.enabled ?? true,
        secret: newWebhookSecret(),
        createdAt: now,
      });
      await this.log(tx, actor, row, 'created');
      return { ...toApi(row), secret: row.secret };
    });
  }

  async update(actor: Actor, customerId: string, id: string, input: WebhookUpdate): Promise<Webhook> {
    if (input.url !== undefined) await this.requireUrl(input.url);
    return this.ctx.db.transaction(async (tx) => {
      const current = await this.find(actor, tx, customerId, id, true);
      const enabling = input.enabled === true && !current.enabled;
      const disabling = input.enabled === false && current.enabled;
      const row = await updateWebhook(tx, id, {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        // Enabled again: its failures start afresh (docs/webhooks.md "Disabling").
        ...(enabling ? { disabledReason: null, consecutiveFailures: 0, failingSince: null } : {}),
      });
      if (disabling) await giveUpQueued(tx, id, 'webhook disabled');
      await this.log(tx, actor, row, 'updated', changedFieldsOf(input).map(loggedField));
      return toApi(row);
    });
  }

  async remove(actor: Actor, customerId: string, id: string): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const current = await this.find(actor, tx, customerId, id, true);
      await deleteWebhook(tx, id);
      await this.log(tx, actor, current, 'deleted');
    });
  }

  /** A new secret, answered this once; the old one signs nothing from now on. */
  async rotateSecret(actor: Actor, customerId: string, id: string): Promise<WebhookWithSecret> {
    return this.ctx.db.transaction(async (tx) => {
      await this.find(actor, tx, customerId, id, true);
      const row = await updateWebhook(tx, id, { secret: newWebhookSecret() });
      await this.log(tx, actor, row, 'updated', ['secret']);
      return { ...toApi(row), secret: row.secret };
    });
  }

  /**
   * Queues a `webhook.test` event for this webhook alone (enabled or not: a receiver may be
   * checked before the webhook is enabled) and starts delivering it; the delivery log shows how it
   * went. It changes nothing, so it is not logged.
   */
  async sendTest(actor: Actor, customerId: string, id: string): Promise<ApiWebhookDelivery> {
    const now = this.ctx.now();
    const delivery = await this.ctx.db.transaction(async (tx) => {
      const webhook = await this.find(actor, tx, customerId, id);
      return queueTestEvent(tx, webhook, {
        id: randomUUID(),
        at: now,
        data: { webhook_id: webhook.id, message: 'A test event from Flowbox Manager' },
      });
    });
    this.delivery.kick();
    return {
      id: delivery.id,
      event_id: delivery.eventId,
      event_type: 'webhook.test',
      status: delivery.status,
      attempts: delivery.attempts,
      response_status: null,
      error: null,
      created_at: delivery.createdAt.toISOString(),
      last_attempt_at: null,
      next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
      delivered_at: null,
    };
  }

  async deliveries(
    actor: Actor,
    customerId: string,
    id: string,
    query: WebhookDeliveriesQuery,
  ): Promise<WebhookDeliveriesPage> {
    await this.find(actor, this.ctx.db, customerId, id);
    return deliveriesPage(this.ctx.db, id, query);
  }

  /** The customer's managers only; an unknown customer is not found to a provider manager. */
  private async enterCustomer(actor: Actor, customerId: string): Promise<void> {
    requireWebhooksManage(actor, customerId);
    if (!(await customerExists(this.ctx.db, customerId))) throw unknownTo(actor);
  }

  private async find(
    actor: Actor,
    db: Db,
    customerId: string,
    id: string,
    forUpdate = false,
  ): Promise<WebhookRow> {
    requireWebhooksManage(actor, customerId);
    const row = await findWebhook(db, customerId, id, forUpdate);
    if (!row) throw unknownTo(actor);
    return row;
  }

  /**
   * https to a public host (docs/webhooks.md "Where a webhook may point"): a literal address, or
   * every address the name resolves to now, outside the private, local and reserved networks. A name
   * that does not resolve now is saved: each delivery resolves it again and checks before sending.
   */
  private async requireUrl(value: string): Promise<void> {
    const url = URL.parse(value);
    if (!url || !webhookSchemeAccepted(url, this.options))
      throw new AppError('errors.validation', {}, [{ path: 'url', message: 'validation.webhook_url' }]);
    const addresses = await addressesOf(url, this.options.lookup ?? systemLookup).catch(() => []);
    if (addresses.some(({ address }) => !savableAddress(address, this.options)))
      throw new AppError('errors.validation', {}, [{ path: 'url', message: 'validation.webhook_address' }]);
  }

  private log(
    tx: Db,
    actor: Actor,
    row: WebhookRow,
    action: 'created' | 'updated' | 'deleted',
    changedFields?: string[],
  ): Promise<void> {
    return recordChange(tx, this.ctx.now(), actor, {
      action,
      object: 'webhook',
      objectId: row.id,
      objectLabel: webhookLabel(row),
      scope: { customerId: row.customerId },
      ...(changedFields ? { changedFields } : {}),
    });
  }
}

/** `enabled` alone names the alert emails' switch in the activity log's texts. */
function loggedField(field: string): string {
  return field === 'enabled' ? 'webhook_enabled' : field;
}

function toApi(row: WebhookRow): Webhook {
  return {
    id: row.id,
    customer_id: row.customerId,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    consecutive_failures: row.consecutiveFailures,
    failing_since: row.failingSince?.toISOString() ?? null,
    last_success_at: row.lastSuccessAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
