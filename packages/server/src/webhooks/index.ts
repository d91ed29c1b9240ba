/** The webhooks module's public face (docs/webhooks.md): what app.ts takes besides its services and routes. */
export { webhookMetrics } from './metrics.ts';
export { WEBHOOKS_CHANNEL } from './webhooks.repo.ts';
