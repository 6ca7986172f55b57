#!/usr/bin/env bash
# Proves that README's two commands need nothing installed by hand: makes a
# bare Debian 12 root with debootstrap (--variant=minbase), copies in a clone
# of this checkout's HEAD and ../shared, and runs, as root in a chroot with
# /proc, /sys and /dev mounted, `bash test/demo.sh` and then `CI=true bash
# test/run-tests.sh --pg all`, timing each. Not part of a CI run: it takes the
# suite's cold time (about 45 minutes) plus the bootstrap.
#
#   bash test/fresh-machine.sh                 # both commands in /var/tmp/idgen-fresh
#   bash test/fresh-machine.sh --demo-only     # the bootstrap and the demo only
#   bash test/fresh-machine.sh --keep DIR      # DIR as the root, kept afterwards
#   bash test/fresh-machine.sh --suite '--pg 15 --only python_package'  # no demo; the suite
#                                              # with these arguments instead of --pg all
#
# What a machine image has beyond minbase and the registries need is copied in
# from this machine: its apt sources and apt settings (so the chroot reaches
# the same archive), its CA certificate bundle and its npm configuration.
# Nothing of this machine's /etc/apt is changed. Ends with a line
# "fresh machine: demo N s (exit S), suite N s (exit S): CLOSING LINE".
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
shared=$(realpath -m "$repo/../shared")
demo_only=no keep=no root=/var/tmp/idgen-fresh suite_args='--pg all' run_demo=yes
while (($#)); do
    case $1 in
        --demo-only) demo_only=yes ;;
        --keep) keep=yes; root=${2:?--keep needs a directory}; shift ;;
        --suite) suite_args=${2:?--suite needs the arguments for run-tests.sh}; run_demo=no; shift ;;
        *) echo "usage: bash test/fresh-machine.sh [--demo-only] [--keep DIR] [--suite ARGS]" >&2; exit 2 ;;
    esac
    shift
done
[[ $EUID -eq 0 ]] || { echo "fresh-machine: debootstrap and chroot need root" >&2; exit 1; }
[[ -d $shared ]] || { echo "fresh-machine: $shared not found (the suite needs ../shared)" >&2; exit 1; }

say() { echo "fresh-machine: $*" >&2; }

# unmount_all: undoes the mounts under the root, innermost first, then the
# root's bind mount on itself.
unmount_all() {
    local m
    for m in dev sys proc; do
        mountpoint -q "$root/$m" && umount -R -l "$root/$m"
    done
    mountpoint -q "$root" && umount -R -l "$root"
    return 0
}
cleanup() {
    unmount_all
    [[ $keep == yes ]] || rm -rf --one-file-system "$root"
}
trap cleanup EXIT

command -v debootstrap >/dev/null || {
    say "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
}
archive=$(bash "$repo/test/pg-build.sh" --archive)

started=$SECONDS
# A root left by an interrupted run is not fresh: only --keep reuses one.
if [[ $keep == no || ! -x $root/usr/bin/apt-get ]]; then
    rm -rf --one-file-system "$root"
    say "debootstrap --variant=minbase bookworm into $root"
    debootstrap --variant=minbase bookworm "$root" "$archive" >"/tmp/idgen-fresh-debootstrap.log" 2>&1 ||
        { tail -n 20 /tmp/idgen-fresh-debootstrap.log >&2; exit 1; }
fi
bootstrap_seconds=$((SECONDS - started))

# What a machine image brings: the same apt sources and settings, the CA
# bundle, npm's configuration and name resolution.
rm -f "$root/etc/apt/sources.list"
mkdir -p "$root/etc/apt/sources.list.d" "$root/etc/apt/apt.conf.d" "$root/etc/ssl/certs" "$root/usr/etc"
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null || true
[[ -f /etc/apt/sources.list ]] && cp /etc/apt/sources.list "$root/etc/apt/"
for f in /etc/apt/apt.conf.d/99*; do [[ -f $f ]] && cp "$f" "$root/etc/apt/apt.conf.d/"; done
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
# Installing ca-certificates in the root rebuilds that bundle from Debian's
# list; copies among the local certificates keep this machine's authorities,
# one certificate a file, as Java's trust store (ca-certificates-java) imports
# only a file's first certificate (Maven Central through this machine's
# authorities).
rm -rf "$root/usr/local/share/ca-certificates"
mkdir -p "$root/usr/local/share/ca-certificates"
awk -v dir="$root/usr/local/share/ca-certificates" '
    /-----BEGIN CERTIFICATE-----/ { file = sprintf("%s/machine-%04d.crt", dir, ++n) }
    file { print > file }
    /-----END CERTIFICATE-----/ { close(file); file = "" }' /etc/ssl/certs/ca-certificates.crt
for f in /etc/npmrc /usr/etc/npmrc /root/.npmrc; do [[ -f $f ]] && cp "$f" "$root$f"; done
cp /etc/resolv.conf "$root/etc/resolv.conf"

# The checkout as CI gets it: a clone of HEAD, ../shared beside it.
rm -rf "$root/work" && mkdir -p "$root/work"
git clone -q "$repo" "$root/work/main"
cp -r "$shared" "$root/work/shared"

# The root is a mount of its own, as a machine's / is: test/lib/pg-root.sh's
# unshare makes / private, which a plain directory refuses ("cannot change
# root filesystem propagation").
mountpoint -q "$root" || mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"  # with /sys/fs/cgroup, which the benchmark's memory cap needs
mount --rbind /dev "$root/dev"  # with /dev/shm, where PostgreSQL keeps dynamic shared memory

# in_root COMMAND: runs a shell command as root inside, with a clean environment.
in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 CI=true \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        bash -c "cd /work/main && $1"
}

log=/tmp/idgen-fresh-machine.log
started=$SECONDS
demo_status=0
if [[ $run_demo == yes ]]; then
    in_root "bash test/demo.sh" >"$log.demo" 2>&1 || demo_status=$?
    tail -n 5 "$log.demo" >&2
fi
demo_seconds=$((SECONDS - started))
say "bootstrap ${bootstrap_seconds} s; demo ${demo_seconds} s (exit $demo_status), log $log.demo"
if [[ $demo_only == yes ]]; then
    echo "fresh machine: demo ${demo_seconds} s (exit $demo_status)"
    exit "$demo_status"
fi

started=$SECONDS
suite_status=0
in_root "bash test/run-tests.sh $suite_args" >"$log.suite" 2>&1 || suite_status=$?
suite_seconds=$((SECONDS - started))
closing=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log.suite" | tail -n 1)
sed -n '/^majors tested/,$p' "$log.suite" | tail -n 40 >&2 || true
echo "fresh machine: demo ${demo_seconds} s (exit $demo_status), suite ${suite_seconds} s (exit $suite_status): ${closing:-no closing line, see $log.suite}"
((demo_status == 0 && suite_status == 0))
