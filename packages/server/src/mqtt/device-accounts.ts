import {
  bootstrapUsername,
  deviceTopic,
  identityFromUsername,
  mayPublish,
  maySubscribe,
  TOPIC_KINDS,
  type DeviceIdentity,
} from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { backedAccounts, lockDeviceAccounts } from '../flowboxes/index.ts';
import type { Logger } from './broker.ts';
import type { AccountCounters, DeviceAccounts } from '../devices/index.ts';
import type { DynsecCommand, DynsecControl } from './dynsec.ts';

/**
 * Each device account has its own role holding its ACL (dynamic-security ACLs have no `%u`), named
 * with this prefix: what the server made is told apart from the operator's own clients and roles
 * (its admin and server accounts), which reconciliation never touches.
 */
export const DEVICE_ROLE_PREFIX = 'flowbox-device:';
const TEXTNAME = 'Flowbox device (managed by Flowbox Manager)';
/** Commands a message: Mosquitto saves its configuration file after each message's changes. */
const COMMANDS_PER_MESSAGE = 100;
const PAGE = 500;
/** Serials a revocation checks in one query (a customer's deletion may revoke thousands). */
const SERIALS_PER_REVOCATION = 1000;

export const roleOf = (username: string) => `${DEVICE_ROLE_PREFIX}${username}`;
const usernameOf = (identity: DeviceIdentity) =>
  identity.role === 'device' ? identity.serial : bootstrapUsername(identity.serial);

/**
 * The identity's ACL, docs/protocol.md's table computed from the protocol's own rules
 * (`mayPublish`, `maySubscribe`): exact topics only (`subscribeLiteral`: a wildcard subscription
 * is no literal match), everything else left to the default deny.
 */
export function aclOf(identity: DeviceIdentity) {
  const topics = TOPIC_KINDS.map((kind) => deviceTopic(identity.serial, kind));
  return [
    ...topics
      .filter((topic) => mayPublish(identity, topic))
      .map((topic) => ({ acltype: 'publishClientSend', topic, priority: 0, allow: true })),
    ...topics
      .filter((topic) => maySubscribe(identity, topic))
      .map((topic) => ({ acltype: 'subscribeLiteral', topic, priority: 0, allow: true })),
  ];
}

const deleteAccount = (username: string): DynsecCommand[] => [
  { command: 'deleteClient', username },
  { command: 'deleteRole', rolename: roleOf(username) },
];

type ListedRole = { rolename: string; acls?: { acltype: string; topic: string }[] };

/** The addRoleACL commands that bring a device account's role to today's `aclOf`. */
function missingAcls(username: string, acls: readonly { acltype: string; topic: string }[]): DynsecCommand[] {
  const identity = identityFromUsername(username);
  if (!identity) return [];
  const has = new Set(acls.map((a) => `${a.acltype} ${a.topic}`));
  return aclOf(identity)
    .filter((a) => !has.has(`${a.acltype} ${a.topic}`))
    .map((a) => ({ command: 'addRoleACL', rolename: roleOf(username), ...a }));
}

type ListedClient = { username: string; clientid?: string; roles?: { rolename: string }[] };

/**
 * A device's account admits only its user name as client id (docs/protocol.md "Credentials and the
 * ACL"): Mosquitto then refuses any other, so no device takes over another's session, an empty id
 * included.
 */
const bindClientId = (username: string): DynsecCommand => ({
  command: 'setClientId',
  username,
  clientid: username,
});

/**
 * Device accounts kept on Mosquitto by its dynamic security (docs/protocol.md "External brokers:
 * Mosquitto"). The database is the truth, and the broker may have more than it says, never less:
 *
 * - **grant**: the account (role with its ACL, client with the secret) is made before the
 *   credential's transaction commits; a broker that does not confirm rolls it back.
 * - **revoke**: after a revocation commits, the accounts the database no longer backs are deleted
 *   (deleting a client disconnects it). A broker down at that moment keeps them until…
 * - **reconcile**: on every connection and periodically, the managed accounts the database does not
 *   back are deleted, and those it backs are bound to their client id. The other way cannot be mended: the database keeps only hashes, so an account
 *   missing on the broker (deleted by hand, a lost broker file) is counted and logged; its device
 *   needs pairing again.
 *
 * All three take one database lock, so a reconciliation never reads an account made for a
 * transaction still open, and a late revocation never deletes an account granted again since.
 *
 * With several independent brokers (MQTT_URL's list, docs/operations.md "Beyond one Mosquitto") a
 * device may connect to any of them: each account is made on every broker (a broker that does not
 * confirm fails the grant), deleted from every one, and each broker is reconciled on its own.
 */
export class DynsecDeviceAccounts implements DeviceAccounts {
  readonly counters: AccountCounters = {
    granted: 0,
    grant_failures: 0,
    revoked: 0,
    revoke_failures: 0,
    reconcile_passes: 0,
    reconcile_failures: 0,
    reconcile_removed: 0,
    missing: 0,
  };
  private reconciling: Promise<void> | undefined;

  private readonly controls: readonly DynsecControl[];

  constructor(
    controls: DynsecControl | readonly DynsecControl[],
    private readonly db: Db,
    private readonly log: Logger,
  ) {
    this.controls = Array.isArray(controls) ? controls : [controls as DynsecControl];
  }

  async grant(db: Db, identity: DeviceIdentity, secret: string): Promise<void> {
    await lockDeviceAccounts(db);
    const username = usernameOf(identity);
    const rolename = roleOf(username);
    try {
      // Replaces whatever was there (a fresh secret for a device that missed its answer, or an
      // account a failed revocation left behind); "not found" answers to the deletions are fine.
      const commands = [
        ...deleteAccount(username),
        { command: 'createRole', rolename, textname: TEXTNAME, acls: aclOf(identity) },
        {
          command: 'createClient',
          username,
          clientid: username,
          password: secret,
          textname: TEXTNAME,
          roles: [{ rolename }],
        },
      ];
      const answered = await Promise.all(this.controls.map((control) => control.run(commands)));
      const refused = answered.flatMap((answers) => answers.slice(2)).find((a) => a.error);
      if (refused) throw new Error(`${refused.command}: ${refused.error}`);
      this.counters.granted += 1;
    } catch (error) {
      this.counters.grant_failures += 1;
      this.log.warn({ err: String(error), username }, 'dynamic security: device account not created');
      throw error;
    }
  }

  async revoke(serials: string[]): Promise<void> {
    try {
      for (let i = 0; i < serials.length; i += SERIALS_PER_REVOCATION) {
        const some = serials.slice(i, i + SERIALS_PER_REVOCATION);
        await this.db.transaction(async (tx) => {
          await lockDeviceAccounts(tx);
          const backed = await backedAccounts(tx, some);
          const commands = some.flatMap((serial) => [
            ...(backed.device.has(serial) ? [] : deleteAccount(serial)),
            ...(backed.bootstrap.has(serial) ? [] : deleteAccount(bootstrapUsername(serial))),
          ]);
          await this.runAll(commands);
        });
        this.counters.revoked += some.length;
      }
    } catch (error) {
      this.counters.revoke_failures += 1;
      this.log.warn(
        { err: String(error), count: serials.length, serials: serials.slice(0, 10) },
        'dynamic security: device accounts not deleted yet; the next reconciliation will',
      );
    }
  }

  /** One pass at a time; a pass asked for while one runs is that pass. */
  reconcile(): Promise<void> {
    this.reconciling ??= this.reconcileOnce().finally(() => (this.reconciling = undefined));
    return this.reconciling;
  }

  private async reconcileOnce(): Promise<void> {
    const connected = this.controls.filter((control) => control.connected);
    if (connected.length === 0) return;
    try {
      let missing = 0;
      for (const control of connected) missing += await this.reconcileBroker(control);
      this.counters.reconcile_passes += 1;
      this.counters.missing = missing;
    } catch (error) {
      this.counters.reconcile_failures += 1;
      this.log.warn({ err: String(error) }, 'dynamic security: reconciliation failed; it runs again later');
    }
  }

  /** One broker's pass; answers how many accounts the database backs that this broker lacks. */
  private reconcileBroker(control: DynsecControl): Promise<number> {
    return this.db.transaction(async (tx) => {
      await lockDeviceAccounts(tx);
      const clients = await this.list<ListedClient>(control, 'listClients', 'clients', true);
      const listedRoles = await this.list<ListedRole>(control, 'listRoles', 'roles', true);
      const roles = listedRoles.map((r) => r.rolename);
      const roleAcls = new Map(listedRoles.map((r) => [r.rolename, r.acls ?? []]));
      const backed = await backedAccounts(tx);
      const isBacked = (username: string) => {
        const identity = identityFromUsername(username);
        if (!identity) return false;
        return (identity.role === 'device' ? backed.device : backed.bootstrap).has(identity.serial);
      };
      const managed = clients.filter((c) => c.roles?.some((r) => r.rolename === roleOf(c.username)));
      const stale = managed.map((c) => c.username).filter((u) => !isBacked(u));
      const staleRoles = roles.filter(
        (r) => r.startsWith(DEVICE_ROLE_PREFIX) && !isBacked(r.slice(DEVICE_ROLE_PREFIX.length)),
      );
      // Accounts made before client ids were bound (or unbound by hand) are bound now.
      const unbound = managed
        .filter((c) => isBacked(c.username) && c.clientid !== c.username)
        .map((c) => c.username);
      // Roles made before the protocol gained a topic (a device's `confirm`) get its ACL now.
      const widened = managed
        .filter((c) => isBacked(c.username))
        .flatMap((c) => missingAcls(c.username, roleAcls.get(roleOf(c.username)) ?? []));
      await this.runOn(control, [
        ...stale.map((username) => ({ command: 'deleteClient', username })),
        ...staleRoles.map((rolename) => ({ command: 'deleteRole', rolename })),
        ...unbound.map(bindClientId),
        ...widened,
      ]);
      const present = new Set(clients.map((c) => c.username));
      const missing = [
        ...[...backed.device].filter((s) => !present.has(s)),
        ...[...backed.bootstrap].map(bootstrapUsername).filter((u) => !present.has(u)),
      ];
      this.counters.reconcile_removed += stale.length;
      if (stale.length > 0)
        this.log.info(
          { count: stale.length, usernames: stale.slice(0, 10) },
          'dynamic security: stale device accounts deleted',
        );
      if (unbound.length > 0)
        this.log.info(
          { count: unbound.length, usernames: unbound.slice(0, 10) },
          'dynamic security: device accounts bound to their client id',
        );
      if (missing.length > 0)
        this.log.warn(
          { count: missing.length, usernames: missing.slice(0, 10) },
          'dynamic security: device accounts missing on the broker; their secrets are not kept, so these devices need pairing again',
        );
      return missing.length;
    });
  }

  /** Every client or role of the broker, a page at a time. */
  private async list<T>(
    control: DynsecControl,
    command: string,
    field: string,
    verbose: boolean,
  ): Promise<T[]> {
    const all: T[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const [answer] = await control.run([{ command, verbose, count: PAGE, offset }]);
      if (!answer || answer.error) throw new Error(`${command}: ${answer?.error ?? 'no answer'}`);
      const data = answer.data as { totalCount: number } & Record<string, T[]>;
      all.push(...(data[field] ?? []));
      if (offset + PAGE >= data.totalCount) return all;
    }
  }

  /** The commands on every broker: one that fails does not keep them from the others. */
  private async runAll(commands: DynsecCommand[]): Promise<void> {
    const results = await Promise.allSettled(this.controls.map((control) => this.runOn(control, commands)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Commands in messages of a hundred; "not found" answers mean done already (a deletion raced). */
  private async runOn(control: DynsecControl, commands: DynsecCommand[]): Promise<void> {
    for (let i = 0; i < commands.length; i += COMMANDS_PER_MESSAGE) {
      const answers = await control.run(commands.slice(i, i + COMMANDS_PER_MESSAGE));
      const failed = answers.find((a) => a.error && !/not found/i.test(a.error));
      if (failed) throw new Error(`${failed.command}: ${failed.error}`);
    }
  }
}
