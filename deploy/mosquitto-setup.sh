#!/bin/sh
# compose.yaml's mosquitto-setup: the server's account and role on the broker, as docs/protocol.md
# "External brokers: Mosquitto" lists them. Run again, the commands that find them made fail: ignored.
set -u
ctrl() { mosquitto_ctrl -h "${BROKER_HOST:-mosquitto}" -p "${BROKER_PORT:-1883}" -u flowbox.admin -P "$MQTT_ADMIN_PASSWORD" dynsec "$@"; }
for _ in $(seq 1 30); do ctrl listRoles >/dev/null 2>&1 && break; sleep 1; done
ctrl createRole flowbox.server || true
ctrl addRoleACL flowbox.server publishClientSend 'flowbox/+/commands' allow || true
ctrl addRoleACL flowbox.server publishClientSend 'flowbox/+/pairing/response' allow || true
ctrl addRoleACL flowbox.server publishClientSend 'flowbox/+/confirm' allow || true
ctrl addRoleACL flowbox.server publishClientSend 'flowbox/.server/probe/#' allow || true
ctrl addRoleACL flowbox.server subscribePattern 'flowbox/#' allow || true
ctrl addRoleACL flowbox.server subscribePattern '$share/+/flowbox/#' allow || true
ctrl createClient flowbox.server -p "$MQTT_SERVER_PASSWORD" || true
ctrl setClientPassword flowbox.server "$MQTT_SERVER_PASSWORD"
ctrl addClientRole flowbox.server flowbox.server || true
ctrl listRoles >/dev/null
