"""idgen.decode.SnowflakeLayout: the predefined layouts and every snowflake_layout
case of the extension's vectors file (definitions, IDs, compositions,
boundaries, as the cores answer them), then IDs the server composes with
snowflake_layout_compose() over random times and fields in each layout of the
file, decoded as snowflake_layout_decompose() decodes them and composed as the
server composes them."""
import json
import os
import random

import pytest

from id_vectors import FAMILIES, cases, ids
from idgen import decode
from idgen.decode import SnowflakeLayout, SnowflakeLayoutError

LAYOUTS = FAMILIES["snowflake_layout"]["layouts"]
N = int(os.environ.get("IDGEN_DECODER_VALUES", "100000")) // 5
rng = random.Random(int(os.environ.get("IDGEN_DECODER_SEED", "20261204")))


def pairs(text):
    """The file's "name:number,..." as (name, number) pairs."""
    return [(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1])) for p in text.split(",") if p]


def layout_of(name):
    """A layout of the file as the package makes it."""
    l = LAYOUTS[name]
    if l["predefined"]:
        return SnowflakeLayout.predefined(name, instagram_epoch=l["epoch_unix_ms"])
    return SnowflakeLayout(l["epoch_unix_ms"], l["time_unit_ms"], [(f["name"], f["bits"]) for f in l["fields"]])


def test_predefined_layouts_are_the_files():
    predefined = {n: l for n, l in LAYOUTS.items() if l["predefined"]}
    assert list(decode.PREDEFINED_SNOWFLAKE_LAYOUTS) == list(predefined)
    for name, (epoch, unit, fields) in decode.PREDEFINED_SNOWFLAKE_LAYOUTS.items():
        l = predefined[name]
        assert (unit, fields) == (l["time_unit_ms"], tuple((f["name"], f["bits"]) for f in l["fields"])), name
        assert epoch == (None if name == "instagram" else l["epoch_unix_ms"]), name
    assert SnowflakeLayout.predefined("instagram").epoch_unix_ms == LAYOUTS["instagram"]["epoch_unix_ms"]


@pytest.mark.parametrize("case", cases("snowflake_layout", "predefined"), ids=ids(cases("snowflake_layout", "predefined")))
def test_predefined(case):
    if not case["ok"]:
        with pytest.raises(SnowflakeLayoutError) as e:
            SnowflakeLayout.predefined(case["name"], instagram_epoch=case["instagram_epoch_ms"])
        assert e.value.reason == case["reason"]
        return
    l = SnowflakeLayout.predefined(case["name"], instagram_epoch=case["instagram_epoch_ms"])
    assert (l.epoch_unix_ms, l.time_unit_ms, ",".join("%s:%d" % f for f in l.fields), l.total_bits, l.end_unix_ms) == (
        case["epoch_unix_ms"], case["time_unit_ms"], case["fields"], case["total_bits"], case["end_unix_ms"])


@pytest.mark.parametrize("case", cases("snowflake_layout", "define"), ids=ids(cases("snowflake_layout", "define")))
def test_define(case):
    make = lambda: SnowflakeLayout(case["epoch_unix_ms"], case["time_unit_ms"], pairs(case["fields"]))  # noqa: E731
    if not case["ok"]:
        with pytest.raises(SnowflakeLayoutError) as e:
            make()
        assert e.value.reason == case["reason"]
        return
    assert (make().total_bits, make().end_unix_ms) == (case["total_bits"], case["end_unix_ms"])


def labelled(form):
    listed = cases("snowflake_layout", form)
    return pytest.mark.parametrize("case", listed, ids=["%s: %s" % (c["layout"], c["what"]) for c in listed])


@labelled("id")
def test_id(case):
    l = layout_of(case["layout"])
    if not case["ok"]:
        with pytest.raises(SnowflakeLayoutError) as e:
            l.decompose(int(case["id"]))
        assert e.value.reason == case["reason"]
        return
    d = l.decompose(int(case["id"]))
    assert {k: v for k, v in d.items() if k != "timestamp"} == {
        k: case[k] for k in [f["name"] for f in LAYOUTS[case["layout"]]["fields"]] + ["unix_ms"]}
    assert d["timestamp"] == l.time(int(case["id"])) == decode._UNIX_EPOCH + decode.timedelta(milliseconds=case["unix_ms"])


@labelled("compose")
def test_compose(case):
    compose = lambda: layout_of(case["layout"]).compose(case["unix_ms"], dict(pairs(case["fields"])))  # noqa: E731
    if not case["ok"]:
        with pytest.raises(SnowflakeLayoutError) as e:
            compose()
        assert (e.value.reason, e.value.field if "cause" in case else None) == (case["reason"], case.get("cause"))
        return
    assert compose() == int(case["id"])


@labelled("boundary")
def test_boundary(case):
    l = layout_of(case["layout"])
    if not case["ok"]:
        for largest in (False, True):
            with pytest.raises(SnowflakeLayoutError) as e:
                l.boundary(case["unix_ms"], largest=largest)
            assert e.value.reason == case["reason"]
        return
    assert (l.boundary(case["unix_ms"]), l.boundary(case["unix_ms"], largest=True)) == (
        int(case["smallest"]), int(case["largest"]))


def test_readme_example():
    # README python begins
    from datetime import datetime, timezone

    from idgen.decode import SnowflakeLayout

    discord = SnowflakeLayout.predefined("discord")
    parts = discord.decompose(175928847299117063)  # {"time": 41944705796, "worker": 1, "process": 0, "sequence": 7, ...}
    shop = SnowflakeLayout(datetime(2020, 1, 1, tzinfo=timezone.utc), 1,
                           [("time", 42), ("region", 4), ("worker", 6), ("sequence", 11)])
    id_ = shop.compose(datetime(2026, 12, 4, 5, 0, 0, 500000, tzinfo=timezone.utc),
                       {"region": 15, "worker": 63, "sequence": 2047})
    start = shop.boundary(datetime(2026, 12, 4, tzinfo=timezone.utc))  # WHERE id >= start
    # README python ends
    assert (parts["worker"], parts["process"], parts["sequence"], parts["unix_ms"]) == (1, 0, 7, 1462015105796)
    assert parts["timestamp"] == datetime(2016, 4, 30, 11, 18, 25, 796000, tzinfo=timezone.utc)
    assert (id_, start) == (458277205837873151, 458239456051200000)  # docs/reference.md's figures


@pytest.fixture
def defined(conn):
    """The file's layouts of the cases' own, defined on the server (one that
    has run out inserted as a restore would)."""
    for name, l in LAYOUTS.items():
        if l["predefined"]:
            continue
        conn.execute("DELETE FROM snowflake_layouts WHERE name = %s", (name,))
        args = (name, l["epoch_unix_ms"], l["time_unit_ms"], [f["name"] for f in l["fields"]], [f["bits"] for f in l["fields"]])
        if l["end_unix_ms"] > conn.execute("SELECT (extract(epoch FROM now()) * 1000)::int8").fetchone()[0]:
            conn.execute("SELECT snowflake_layout_define(%s, timestamptz 'epoch' + %s * interval '1 ms', %s, %s, %s)", args)
        else:
            conn.execute("INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits) "
                         "VALUES (%s, timestamptz 'epoch' + %s * interval '1 ms', %s, %s, %s)", args)
    return conn


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_server_composed_ids(defined, name):
    l = layout_of(name)
    end = min(l.end_unix_ms, 7258118400000)  # 2200
    given = [(rng.randrange(l.epoch_unix_ms, end),
              {f: rng.randrange(1 << bits) for f, bits in l.fields if f != "time"}) for _ in range(N)]
    server = defined.execute(
        "SELECT snowflake_layout_compose(%s, timestamptz 'epoch' + ms * interval '1 ms', f)::text, "
        "snowflake_layout_decompose(snowflake_layout_compose(%s, timestamptz 'epoch' + ms * interval '1 ms', f), %s)::text "
        "FROM unnest(%s::int8[], %s::jsonb[]) WITH ORDINALITY u(ms, f, i) ORDER BY i",
        (name, name, name, [ms for ms, _ in given], [json.dumps(f) for _, f in given])).fetchall()
    assert len(server) == N
    bad = []
    for (ms, fields), (id_text, decomposed) in zip(given, server):
        mine = l.decompose(int(id_text))
        mine["timestamp"] = mine["timestamp"].isoformat(timespec="milliseconds").replace("+00:00", "Z")
        if l.compose(ms, fields) != int(id_text) or mine != json.loads(decomposed):
            bad.append((ms, fields, id_text, mine, decomposed))
    assert bad[:3] == [] and not bad, "%d of %d differ" % (len(bad), N)
