import type { App } from './types.ts';

/** The web app uses no camera, microphone, location or other powerful browser feature. */
const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'bluetooth=()',
  'browsing-topics=()',
].join(', ');

/**
 * The security headers of every answer, API, error or file alike: no type sniffing, no framing, no
 * referrer outside the product, no powerful browser feature, and HSTS over TLS. The pages'
 * Content-Security-Policy is sent with the HTML (csp.ts, static-files.ts).
 */
export function securityHeaders(app: App, publicUrl: string): void {
  const servedOverHttps = publicUrl.startsWith('https:');
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // HSTS only means something over TLS; sent over plain HTTP it would be ignored or, behind a
    // TLS proxy, pin a name the operator may still serve in clear (docs/reliability.md).
    if (servedOverHttps || request.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000');
  });
}
