#!/usr/bin/env bash
# Runs a command as root inside a root that test/pg-build.sh made (a major
# served as binary packages of a newer suite: 19), in a mount namespace of its
# own, so that nothing mounted for it shows outside and every mount goes when
# the command ends, whether it passes, fails or is killed. Mounted inside:
# /proc, the machine's /dev (with /dev/pts), a tmpfs of its own on /dev/shm
# (PostgreSQL's dynamic shared memory), each --bind DIR at the same path, and
# --tmp DIR as the root's /tmp. The command runs in --cwd DIR (default /) with
# a clean environment and the --env VAR=VALUE words. When it ends, any process
# it left in the namespace (a server a killed test did not stop) is killed.
#
#   bash test/lib/pg-root.sh ROOT [--bind DIR]... [--tmp DIR] [--cwd DIR] [--env VAR=VALUE]... -- COMMAND...
#
# Exits with the command's status.
set -euo pipefail

usage() {
    echo "usage: bash test/lib/pg-root.sh ROOT [--bind DIR]... [--tmp DIR] [--cwd DIR] [--env VAR=VALUE]... -- COMMAND..." >&2
    exit 2
}
(($# >= 3)) || usage
[[ $EUID -eq 0 ]] || { echo "pg-root: mounting and chroot need root" >&2; exit 1; }
root=$(realpath -e "$1") || usage
shift

# In the new namespace, this script runs again with IDGEN_ROOT_NAMESPACE set.
if [[ ${IDGEN_ROOT_NAMESPACE:-} != "$root" ]]; then
    IDGEN_ROOT_NAMESPACE=$root exec unshare --mount --propagation private -- bash "${BASH_SOURCE[0]}" "$root" "$@"
fi

binds=() tmp='' cwd=/ envs=()
while (($#)); do
    case $1 in
        --bind) binds+=("$(realpath -e "${2:?}")"); shift 2 ;;
        --tmp) tmp=$(realpath -e "${2:?}"); shift 2 ;;
        --cwd) cwd=${2:?}; shift 2 ;;
        --env) envs+=("${2:?}"); shift 2 ;;
        --) shift; break ;;
        *) usage ;;
    esac
done
(($#)) || usage

# cleanup: kills what is left in this namespace, then undoes the mounts,
# innermost first (the namespace's end would too; this says so at once).
mounted=()
cleanup() {
    local p ns
    ns=$(readlink /proc/$$/ns/mnt)
    for p in /proc/[0-9]*; do
        [[ ${p#/proc/} == "$$" ]] && continue
        [[ $(readlink "$p/ns/mnt" 2>/dev/null) == "$ns" ]] && kill -KILL "${p#/proc/}" 2>/dev/null
    done
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -R -l "${mounted[i]}" 2>/dev/null || true
    done
    return 0
}
trap cleanup EXIT

# mount_at TARGET MOUNT-ARGS...: mounts onto TARGET under the root.
mount_at() {
    local target=$root$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounted+=("$target")
}
mount_at /proc -t proc proc
mount_at /dev --rbind /dev
mount_at /dev/shm -t tmpfs -o mode=1777,nosuid,nodev tmpfs
# /tmp first: a --bind DIR under /tmp (a checkout in /tmp, as CI's may be)
# is then mounted inside the root's /tmp instead of being hidden by it.
[[ -n $tmp ]] && mount_at /tmp --bind "$tmp"
for dir in "${binds[@]}"; do
    mount_at "$dir" --bind "$dir"
done

status=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${envs[@]}" \
    sh -c 'cd "$1" && shift && exec "$@"' sh "$cwd" "$@" || status=$?
exit $status
