#!/usr/bin/env bash
# Root-only preparation of test/integration/ha_patroni.pl (test/run-tests.sh
# runs it as root just before the test): patroni and etcd-server installed
# (test/setup.sh, which the suite ran already, when either is missing), and
# the system services those packages enable (and, where services may start,
# start) disabled and stopped: the test runs its own etcd and Patroni on
# ports of its own, as the cluster owner, and checks that none is left
# enabled. Exit status: 0 done, anything else a failure (the reason is in the
# output).
set -uo pipefail
cd "$(dirname "$0")/../../.."

if ! command -v patroni >/dev/null || ! [[ -x /usr/bin/etcd ]]; then
    bash test/setup.sh patroni etcd-server || { echo "test/setup.sh patroni etcd-server failed"; exit 1; }
fi
for service in etcd patroni; do
    if [[ -d /run/systemd/system ]]; then
        systemctl disable --now "$service.service" >/dev/null 2>&1
    else
        [[ -x /etc/init.d/$service ]] && /etc/init.d/$service stop >/dev/null 2>&1
        command -v deb-systemd-helper >/dev/null && deb-systemd-helper disable "$service.service" >/dev/null 2>&1
    fi
    [[ -x /etc/init.d/$service ]] && update-rc.d "$service" disable >/dev/null 2>&1
done
exit 0
