/** What the rest of the server uses of the mqtt domain (docs/architecture.md). */
export { PortInUseError } from './broker.ts';
export { startDeviceMessaging, type DeviceMessaging, type MessagingOptions } from './messaging.ts';
