"""Checks a META.json against version 1.0.0 of the PGXN Meta Spec (the rules
below are our reading of the spec's text: required keys, value types, Terms,
Tags, SemVer versions, version ranges, license strings, prereq phases and
relationships, resources), plus what a release of ours needs: the name and
versions match the Makefile, and the files that `provides` names exist in the
distribution.

    python3 test/lib/pgxn_meta.py META.json --root DIR [--name N --version V] [--label L]
    python3 test/lib/pgxn_meta.py META.json --root DIR --self-test

Prints its plan, then verdict lines (test/lib/verdicts.py). --self-test also
feeds broken copies of the file to the checker, each of which must be refused
(when the file itself passes; otherwise those verdicts never come)."""

import argparse
import copy
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdicts import note, plan, say  # noqa: E402

# SemVer 2.0.0: MAJOR.MINOR.PATCH, no leading zeros, optional pre-release and build.
_ID = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
SEMVER = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
                    rf"(?:-{_ID}(?:\.{_ID})*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?\Z")
RANGE_PART = re.compile(r"\s*(?:(?:==|!=|<=|>=|<|>)\s*)?(\S+)\s*\Z")
LICENSES = {
    "agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd",
    "gfdl_1_2", "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit",
    "mozilla_1_0", "mozilla_1_1", "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay",
    "sun", "zlib", "open_source", "restricted", "unrestricted", "unknown",
}
REQUIRED = ["name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"]
OPTIONAL = ["description", "prereqs", "tags", "no_index", "release_status", "resources",
            "generated_by"]
PHASES = {"configure", "build", "test", "runtime", "develop"}
RELATIONSHIPS = {"requires", "recommends", "suggests", "conflicts"}
URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S+\Z")


def custom(key):
    """Keys the spec does not name must start with x_ or X_."""
    return re.match(r"[xX]_.", key) is not None


def is_string(v):
    return isinstance(v, str) and len(v) > 0


def is_term(v):
    return is_string(v) and len(v) >= 2 and not re.search(r"[/\\\s\x00-\x1f\x7f]", v)


def is_tag(v):
    return is_string(v) and 2 <= len(v) <= 255 and not re.search(r"[/\\\x00-\x1f\x7f]", v)


def is_version(v):
    return isinstance(v, str) and SEMVER.match(v) is not None


def is_range(v):
    if v == 0 or v == "0":
        return True
    if not is_string(v):
        return False
    for part in v.split(","):
        m = RANGE_PART.match(part)
        if not m or not is_version(m.group(1)):
            return False
    return True


def is_path(v, root):
    """A relative unix path to a file that exists under root."""
    return (is_string(v) and not v.startswith("/") and "\\" not in v
            and ".." not in v.split("/") and os.path.isfile(os.path.join(root, v)))


def problems(meta, root):
    """Every way meta breaks the spec, as sentences; empty when it is valid."""
    out = []
    if not isinstance(meta, dict):
        return ["the metadata is not a JSON object"]
    for key in REQUIRED:
        if key not in meta:
            out.append(f"required key '{key}' is missing")
    for key in meta:
        if key not in REQUIRED and key not in OPTIONAL and not custom(key):
            out.append(f"key '{key}' is not in the spec and does not start with x_")
    if "name" in meta and not is_term(meta["name"]):
        out.append("name is not a Term (2+ characters, no slash, backslash, space or control)")
    for key in ("abstract", "description", "generated_by"):
        if key in meta and not is_string(meta[key]):
            out.append(f"{key} is not a non-empty string")
    if "version" in meta and not is_version(meta["version"]):
        out.append(f"version {meta['version']!r} is not a semantic version")
    m = meta.get("maintainer")
    if "maintainer" in meta and not (is_string(m) or (
            isinstance(m, list) and m and all(is_string(x) for x in m))):
        out.append("maintainer is not a string or a non-empty list of strings")
    lic = meta.get("license")
    if "license" in meta and not (
            (isinstance(lic, str) and lic in LICENSES)
            or (isinstance(lic, list) and lic and all(x in LICENSES for x in lic))
            or (isinstance(lic, dict) and lic and all(
                is_string(k) and isinstance(v, str) and URI.match(v) for k, v in lic.items()))):
        out.append(f"license {lic!r} is not a license string of the spec, a list of them, "
                   "or an object of names to URIs")
    provides = meta.get("provides")
    if "provides" in meta:
        if not isinstance(provides, dict) or not provides:
            out.append("provides is not a non-empty object")
        else:
            for ext, spec in provides.items():
                if not is_term(ext):
                    out.append(f"provides key {ext!r} is not a Term")
                if not isinstance(spec, dict):
                    out.append(f"provides.{ext} is not an object")
                    continue
                for key in spec:
                    if key not in ("file", "version", "abstract", "docfile") and not custom(key):
                        out.append(f"provides.{ext} has key '{key}' the spec does not define")
                for key in ("file", "version"):
                    if key not in spec:
                        out.append(f"provides.{ext}.{key} is missing")
                if "version" in spec and not is_version(spec["version"]):
                    out.append(f"provides.{ext}.version {spec['version']!r} is not a semantic version")
                if "abstract" in spec and not is_string(spec["abstract"]):
                    out.append(f"provides.{ext}.abstract is not a non-empty string")
                for key in ("file", "docfile"):
                    if key in spec and not is_path(spec[key], root):
                        out.append(f"provides.{ext}.{key} {spec[key]!r} is not a relative path "
                                   "to a file in the distribution")
    ms = meta.get("meta-spec")
    if "meta-spec" in meta:
        if not isinstance(ms, dict) or ms.get("version") != "1.0.0":
            out.append("meta-spec is not an object with version \"1.0.0\"")
        elif "url" in ms and not (isinstance(ms["url"], str) and URI.match(ms["url"])):
            out.append("meta-spec.url is not a URI")
    tags = meta.get("tags")
    if "tags" in meta and not (isinstance(tags, list) and tags and all(is_tag(t) for t in tags)):
        out.append("tags is not a non-empty list of Tags (2 to 255 characters, no slash, "
                   "backslash or control)")
    if "release_status" in meta and meta["release_status"] not in ("stable", "testing", "unstable"):
        out.append("release_status is not stable, testing or unstable")
    prereqs = meta.get("prereqs")
    if "prereqs" in meta:
        if not isinstance(prereqs, dict) or not prereqs:
            out.append("prereqs is not a non-empty object")
        else:
            for phase, rels in prereqs.items():
                if phase not in PHASES and not custom(phase):
                    out.append(f"prereqs phase '{phase}' is not one of {sorted(PHASES)}")
                    continue
                if not isinstance(rels, dict) or not rels:
                    out.append(f"prereqs.{phase} is not a non-empty object")
                    continue
                for rel, deps in rels.items():
                    if rel not in RELATIONSHIPS and not custom(rel):
                        out.append(f"prereqs.{phase} relationship '{rel}' is not one of "
                                   f"{sorted(RELATIONSHIPS)}")
                    elif not isinstance(deps, dict) or not deps:
                        out.append(f"prereqs.{phase}.{rel} is not a non-empty object")
                    else:
                        for dep, rng in deps.items():
                            if not is_term(dep) or not is_range(rng):
                                out.append(f"prereqs.{phase}.{rel}.{dep} = {rng!r} is not "
                                           "a Term mapped to a version range")
    no_index = meta.get("no_index")
    if "no_index" in meta and not (isinstance(no_index, dict) and all(
            k in ("file", "directory") and (is_string(v) or (
                isinstance(v, list) and all(is_string(x) for x in v)))
            for k, v in no_index.items())):
        out.append("no_index is not an object of file and directory lists")
    res = meta.get("resources")
    if "resources" in meta:
        allowed = {"homepage": None, "bugtracker": {"web", "mailto"},
                   "repository": {"url", "web", "type"}}
        if not isinstance(res, dict) or not res:
            out.append("resources is not a non-empty object")
        else:
            for key, value in res.items():
                if key not in allowed and not custom(key):
                    out.append(f"resources has key '{key}' the spec does not define")
                elif key == "homepage" and not (isinstance(value, str) and URI.match(value)):
                    out.append("resources.homepage is not a URI")
                elif key in ("bugtracker", "repository") and not (
                        isinstance(value, dict) and value
                        and all(k in allowed[key] or custom(k) for k in value)):
                    out.append(f"resources.{key} is not an object of {sorted(allowed[key])}")
    return out


def broken_copies(meta):
    """(what, broken copy) pairs, each of which breaks one rule."""
    def without(key):
        c = copy.deepcopy(meta)
        c.pop(key, None)
        return c

    def with_(path, value):
        c = copy.deepcopy(meta)
        target = c
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return c

    ext = next(iter(meta["provides"]))
    yield "no license", without("license")
    yield "no provides", without("provides")
    yield "license 'PostgreSQL License' (not a spec string)", with_(["license"], "PostgreSQL License")
    yield "version '0.5' (not SemVer)", with_(["version"], "0.5")
    yield "version '01.2.3' (leading zero)", with_(["version"], "01.2.3")
    yield "name 'id gen' (space in a Term)", with_(["name"], "id gen")
    yield "a provides file that is not in the distribution", \
        with_(["provides", ext, "file"], "sql/no-such-file.sql")
    yield "provides without a version", \
        with_(["provides", ext], {k: v for k, v in meta["provides"][ext].items() if k != "version"})
    yield "meta-spec version 2.0.0", with_(["meta-spec"], {"version": "2.0.0"})
    yield "a tag of one character", with_(["tags"], ["x"])
    yield "prereq range 'latest'", with_(["prereqs"], {"runtime": {"requires": {"PostgreSQL": "latest"}}})
    yield "prereq phase 'install'", with_(["prereqs"], {"install": {"requires": {"PostgreSQL": "15.0.0"}}})
    yield "top-level key 'homepage' (not in the spec, no x_)", with_(["homepage"], "https://example.org")
    yield "release_status 'beta'", with_(["release_status"], "beta")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("meta")
    ap.add_argument("--root", required=True, help="the distribution's top directory")
    ap.add_argument("--name", help="the extension name META.json must give")
    ap.add_argument("--version", help="the version META.json must give (the Makefile's)")
    ap.add_argument("--label", help="how verdicts name the file (default: its path)")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    label = args.label or args.meta
    try:
        with open(args.meta, encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        plan(1)
        say(False, f"{label} is readable JSON ({e})")
        return 1
    plan(1 + bool(args.name) + 2 * bool(args.version)
         + (sum(1 for _ in broken_copies(meta)) if args.self_test else 0))
    found = problems(meta, args.root)
    for p in found:
        note(p)
    ok = say(not found, f"{label} follows PGXN Meta Spec 1.0.0")
    if args.name:
        ok &= say(meta.get("name") == args.name and args.name in meta.get("provides", {}),
                  f"{label} names the distribution and its extension {args.name}")
    if args.version:
        versions = [meta.get("version")] + [p.get("version") for p in meta.get("provides", {}).values()
                                            if isinstance(p, dict)]
        ok &= say(all(v == args.version for v in versions),
                  f"{label} gives version {args.version} to the distribution and each extension "
                  f"(found {versions})")
        files = [p.get("file") for p in meta.get("provides", {}).values() if isinstance(p, dict)]
        ok &= say(f"sql/{args.name or meta.get('name')}--{args.version}.sql" in files,
                  f"{label} provides the current full install script "
                  f"sql/{args.name or meta.get('name')}--{args.version}.sql")
    if args.self_test and not found:
        for what, broken in broken_copies(meta):
            ok &= say(bool(problems(broken, args.root)), f"the META.json check refuses {what}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
