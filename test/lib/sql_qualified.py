#!/usr/bin/env python3
"""Reads the SQL edition's generated install script and prints each name that
one of its function bodies resolves through the caller's search_path: a
function, operator, type, collation or relation not written with pg_catalog
or the edition's own schema (issue 51: substring(b, 3, 64) in
idgen_sql_crockford_decode ran a look-alike placed before pg_catalog).

Read: the bodies that PostgreSQL parses when they run, with the caller's
search_path: PL/pgSQL and LANGUAGE sql string bodies, and the statement
templates they EXECUTE. Not read: SQL-standard bodies (RETURN, BEGIN ATOMIC),
argument and result types, domain checks and the script's own statements,
which are bound when the script runs, with the installer's search_path.

Reported, as they resolve through the search_path:
- a call f(...), and the plain forms substring(a, b, c) and overlay(a, b, c);
- an operator outside OPERATOR(schema.op), but for a minus before a number
  (folded into the constant) and the syntax that looks like one (:=, the = of
  an assignment, of RAISE ... USING, GET DIAGNOSTICS and SET, <<label>>, ..,
  the * of count(*) and SELECT *);
- the operators that [NOT] IN, BETWEEN, NULLIF, IS [NOT] DISTINCT FROM, a
  simple CASE x WHEN, LIKE, ILIKE, SIMILAR TO, NATURAL JOIN and JOIN ...
  USING look up by name (= and the like);
- a type after ::, in CAST(... AS ...), of a PL/pgSQL declaration or of a
  typed literal (timestamptz '...');
- a COLLATE name; a relation after FROM, JOIN, UPDATE, INSERT INTO, LOCK or
  TABLE; the name in a literal cast to a reg* type;
- an EXECUTE whose statement is no literal or pg_catalog.format() template.
Not reported, as the grammar rewrites them into pg_catalog calls or built-in
nodes (gram.y): substring(x FROM ...), position(a IN b), trim(...),
overlay(x PLACING ...), extract(f FROM x), normalize(...), COALESCE,
GREATEST, LEAST, EXISTS, ARRAY, ROW, a searched CASE, CURRENT_USER...; and
the keyword type names (integer, bigint, numeric, boolean, double precision,
bit, varchar, timestamp [with time zone], interval...: SystemTypeName), where
text, uuid, bytea, int8 and jsonb are plain names.
Not seen: a name that a body builds when it runs (so an EXECUTE of anything
but a template is reported), and the text of a literal that an argument's
type makes a reg* value without a cast (nextval('seq')): the edition casts
each such literal.

The edition's own schema is the one its mints name until
idgen_sql_snowflake_bind() writes the install's in (generate.py's
UNBOUND_SCHEMA).

Usage: sql_qualified.py SCRIPT. The first line is "bodies=N pg_catalog=N
own=N": the bodies read, and the names they use that are written with each
schema; each further line is "line L: FUNCTION: WHAT, unqualified: TEXT".
Exits 1 when there is one. sql_qualified.py --self-test reads CASES below,
whose lines marked "-- found: WHAT" must be reported, as WHAT, and no other,
and prints "cases=N", then one line per difference.
"""
import collections
import importlib.util
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def unbound_schema():
    """generate.py's UNBOUND_SCHEMA: the name has one source."""
    spec = importlib.util.spec_from_file_location("generate", os.path.join(ROOT, "sql", "edition", "generate.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.UNBOUND_SCHEMA


OWN = unbound_schema()
SCHEMAS = {"pg_catalog": "pg_catalog", OWN: "own"}
# What an EXECUTE template's %I and %s stand for: a name of the caller's
# choosing, written qualified, that is neither counted nor reported.
ARGUMENT = "(format argument)"

# --- the lexer: PostgreSQL's scan.l, as far as function bodies need ---------

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>--[^\n]*)
  | (?P<dollar>\$(?:[A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*)?\$)
  | (?P<param>\$\d+)
  | (?P<string>(?:[EeBbXxNn]|[Uu]&)?')
  | (?P<qident>(?:[Uu]&)?")
  | (?P<number>(?:\d+(?:\.(?!\.)\d*)?|\.\d+)(?:[Ee][+-]?\d+)?)
  | (?P<ident>[A-Za-z_\x80-\uffff][A-Za-z0-9_$\x80-\uffff]*)
  | (?P<punct>::|:=|=>|\.\.|[(),;\[\]:.])
  | (?P<op>[~!@\#^&|`?+\-*/%<>=]+)
""", re.X)


class Token:
    __slots__ = ("kind", "value", "line", "start", "end", "quote")

    def __init__(self, kind, value, line, start, end, quote=""):
        self.kind, self.value, self.line, self.start, self.end, self.quote = kind, value, line, start, end, quote

    def word(self):
        """The keyword (uppercase) of an unquoted identifier, else None."""
        return self.value.upper() if self.kind == "ident" and not self.quote else None

    def is_(self, value):
        return self.kind in ("punct", "op") and self.value == value


def unicode_escapes(text):
    """The characters of a U&'' string or U&"" identifier (\\XXXX, \\+XXXXXX, \\\\)."""
    return re.sub(r"\\(\\|\+[0-9A-Fa-f]{6}|[0-9A-Fa-f]{4})",
                  lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1).lstrip("+"), 16)), text)


def quoted_end(text, j, quote, backslash):
    """The index after the quote closing a string or identifier opened before j."""
    while True:
        if j >= len(text):
            raise SyntaxError("unterminated quote")
        c = text[j]
        if backslash and c == "\\":
            j += 2
        elif c == quote:
            if text.startswith(quote * 2, j):
                j += 2
            else:
                return j + 1
        else:
            j += 1


def tokens(text, first_line=1):
    """The tokens of text (comments and whitespace dropped); a string or a
    quoted identifier holds its characters, escapes undone."""
    out, i, line = [], 0, first_line
    while i < len(text):
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while depth:
                if j >= len(text):
                    raise SyntaxError(f"line {line}: unterminated comment")
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
        else:
            m = TOKEN.match(text, i)
            if not m:
                raise SyntaxError(f"line {line}: cannot read {text[i:i + 20]!r}")
            kind, j, lead = m.lastgroup, m.end(), m.group(0)
            if kind == "dollar":
                k = text.find(lead, j)
                if k < 0:
                    raise SyntaxError(f"line {line}: unterminated {lead}")
                out.append(Token("string", text[j:k], line, i, k + len(lead), quote="$"))
                j = k + len(lead)
            elif kind in ("string", "qident"):
                quote = lead[-1]
                k = quoted_end(text, j, quote, backslash=lead[0] in "Ee")
                value = text[j:k - 1]
                if lead[0] in "Ee":
                    value = re.sub(r"\\(.)", r"\1", value)
                else:
                    value = value.replace(quote * 2, quote)
                if lead[0] in "Uu":
                    value = unicode_escapes(value)
                out.append(Token("string" if kind == "string" else "ident", value, line, i, k, quote=lead))
                j = k
            elif kind == "op":
                op = lead
                # an operator ends where a comment starts; a trailing + or -
                # is the next token's, unless the operator holds ~!@#^&|`?%
                cut = min([k for k in (op.find("--", 1), op.find("/*", 1)) if k > 0] or [len(op)])
                op = op[:cut]
                while len(op) > 1 and op[-1] in "+-" and not any(c in op for c in "~!@#^&|`?%"):
                    op = op[:-1]
                j = i + len(op)
                out.append(Token("op", op, line, i, j))
            elif kind == "ident":
                out.append(Token("ident", lead.lower(), line, i, j))
            elif kind not in ("ws", "comment"):
                out.append(Token(kind, lead, line, i, j))
        line += text.count("\n", i, j)
        i = j
    return out


# --- what the grammar makes of words -----------------------------------------

# Words that precede a parenthesis without being called: clauses, conditions
# and the grammar's built-in forms.
SYNTAX_BEFORE_PAREN = set("""
    CAST IF ELSIF ELSEIF WHEN THEN ELSE AND OR NOT IN RETURN RETURNING VALUES EXISTS ARRAY ROW ANY ALL SOME AS
    USING ON WHERE SELECT FROM JOIN BY CASE WHILE PERFORM INTO OVER FILTER WITHIN GROUP LATERAL DISTINCT
    UNION EXCEPT INTERSECT HAVING IS SET EXECUTE QUERY NEXT LIMIT OFFSET WITH MATERIALIZED
    COALESCE GREATEST LEAST GROUPING CURRENT_TIME CURRENT_TIMESTAMP LOCALTIME LOCALTIMESTAMP
    EXTRACT POSITION TRIM NORMALIZE TREAT XMLCONCAT XMLELEMENT XMLEXISTS XMLFOREST XMLPARSE XMLPI XMLROOT
    XMLSERIALIZE XMLATTRIBUTES XMLNAMESPACES
""".split())

# substring and overlay are SQL-standard forms with one of these words inside,
# plain calls without.
STANDARD_IF = {"SUBSTRING": {"FROM", "FOR", "SIMILAR"}, "OVERLAY": {"PLACING"}}

# The forms whose FROM is no FROM clause.
FROM_INSIDE = {"SUBSTRING", "EXTRACT", "TRIM", "OVERLAY", "NORMALIZE"}

# Words that precede a string literal without typing it.
BEFORE_LITERAL = set("""
    EXCEPTION NOTICE WARNING INFO LOG DEBUG RAISE SQLSTATE THEN ELSE WHEN RETURN AS LIKE ILIKE SIMILAR TO
    ESCAPE AND OR NOT IN IS BETWEEN SELECT FROM VALUES DEFAULT USING EXECUTE INTO QUERY PERFORM WITH BY
    ZONE DISTINCT ON SET ALL ANY SOME UNION CASE ELSIF IF WHERE HAVING LIMIT OFFSET RETURNING LOOP EXIT
    CONTINUE LANGUAGE ASSERT PLACING FOR COLLATE UESCAPE BOTH LEADING TRAILING
""".split())

# The type names that the grammar makes pg_catalog's (SystemTypeName).
KEYWORD_TYPES = {"INT", "INTEGER", "SMALLINT", "BIGINT", "REAL", "FLOAT", "DECIMAL", "DEC", "NUMERIC",
                 "BOOLEAN", "BIT", "CHARACTER", "CHAR", "VARCHAR", "NCHAR", "NATIONAL", "DOUBLE",
                 "TIMESTAMP", "TIME", "INTERVAL"}
TYPE_WORDS = {"PRECISION", "VARYING", "CHARACTER", "CHAR", "WITH", "WITHOUT", "TIME", "ZONE"}

# Words that end a FROM list at its depth.
FROM_END = set("""
    WHERE GROUP HAVING WINDOW ORDER LIMIT OFFSET FETCH UNION INTERSECT EXCEPT RETURNING INTO ON USING SET
    LOOP THEN FOR WHEN ELSE END AND OR
""".split())

# Words after which a PL/pgSQL statement starts (at depth 0 of a body).
STATEMENT_AFTER = {"BEGIN", "LOOP", "THEN", "ELSE", "DECLARE"}

# Values that end an operand, as a name does.
VALUE_WORDS = {"CURRENT_USER", "SESSION_USER", "CURRENT_ROLE", "USER", "NULL", "TRUE", "FALSE",
               "CURRENT_DATE", "CURRENT_SCHEMA", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME",
               "LOCALTIMESTAMP", "END"}


class Checker:
    """The names one body resolves through the search_path."""

    def __init__(self, function, plpgsql):
        self.function = function
        self.plpgsql = plpgsql
        self.problems = []                    # (line, text)
        self.qualified = collections.Counter()  # per schema: the names written with it
        self.operator_ends = set()            # the ) of each OPERATOR(...)

    def report(self, tok, what, text):
        self.problems.append((tok.line, f"line {tok.line}: {self.function}: {what}, unqualified: {text}"))

    def qualified_by(self, schema_tok, what, name, i):
        """Counts a name written schema.name, or reports it when the schema is another."""
        if schema_tok.kind == "ident" and schema_tok.value in SCHEMAS:
            self.qualified[SCHEMAS[schema_tok.value]] += 1
        elif not (schema_tok.kind == "ident" and schema_tok.quote and schema_tok.value == ARGUMENT):
            self.report(schema_tok, f"{what} {schema_tok.value}.{name}", self.snippet(i))

    def merge(self, other):
        self.problems += other.problems
        self.qualified += other.qualified

    def sub(self, suffix, toks, source, plpgsql=False):
        """Checks toks (an expression, a template) as a body of their own."""
        checker = Checker(self.function + suffix, plpgsql)
        checker.run(toks, source)
        self.merge(checker)

    def run(self, toks, source):
        self.toks, self.source = toks, source
        n = len(toks)
        depth = 0
        openers = []        # per open parenthesis, the word before it
        statement = []      # the current statement's tokens at depth 0
        from_list = None    # [depth, expecting an item] in a FROM list
        ctes = set()
        in_declare = False
        i = 0
        while i < n:
            t = toks[i]
            w = t.word()
            prev = toks[i - 1] if i else None
            nxt = toks[i + 1] if i + 1 < n else None
            pw = prev.word() if prev else None
            if depth == 0 and (prev is None or prev.is_(";") or self.is_label_end(i - 1)
                               or (pw in STATEMENT_AFTER and not (pw in ("THEN", "ELSE") and self.in_case_expr(i)))):
                statement = []
            at_start = depth == 0 and not statement
            if depth == 0:
                statement.append(t)
            first = statement[0].word() if statement else None

            if self.plpgsql and depth == 0 and (w == "DECLARE" or (in_declare and w == "BEGIN")):
                in_declare = w == "DECLARE"
                i += 1
                continue
            if in_declare and at_start and t.kind == "ident":
                i = self.declaration(i)
                continue
            if t.is_("<<") and nxt and nxt.kind == "ident" and i + 2 < n and toks[i + 2].is_(">>"):
                i += 3
                continue
            if t.is_("("):
                openers.append(pw)
                depth += 1
                i += 1
                continue
            if t.is_(")"):
                depth -= 1
                if openers:
                    openers.pop()
                if from_list and depth < from_list[0]:
                    from_list = None
                i += 1
                continue
            if t.is_(";"):
                from_list = None
                i += 1
                continue
            if t.is_(",") and from_list and depth == from_list[0]:
                from_list[1] = True
                i += 1
                continue
            if t.is_("::"):
                i = self.type_name(i + 1, "type of a cast")
                continue
            if t.kind == "op":
                i = self.operator(i, statement, depth)
                continue
            if t.kind != "ident":
                i += 1
                continue

            inside = openers[-1] if openers else None
            if w == "OPERATOR" and nxt and nxt.is_("("):
                i = self.operator_construct(i)
                continue
            if w == "EXECUTE" and self.plpgsql and depth == 0:
                self.execute(i)
            if w == "AS" and inside in ("CAST", "TREAT"):
                i = self.type_name(i + 1, "type in CAST")
                continue
            if w == "COLLATE":
                i = self.collation(i + 1)
                continue
            if w == "CASE" and pw != "END" and nxt and nxt.word() != "WHEN":
                self.report(t, "operator = of CASE x WHEN", self.snippet(i))
            if w == "NULLIF" and nxt and nxt.is_("("):
                self.report(t, "operator = of NULLIF", self.call_text(i))
            if w == "BETWEEN":
                self.report(t, "operators >= and <= of BETWEEN", self.snippet(i))
            if w in ("LIKE", "ILIKE") or (w == "SIMILAR" and inside != "SUBSTRING"):
                self.report(t, f"operator of {w}", self.snippet(i))
            if w == "DISTINCT" and pw in ("IS", "NOT") and nxt and nxt.word() == "FROM":
                self.report(t, "operator = of IS DISTINCT FROM", self.snippet(i))
                i += 2
                continue
            if w == "NATURAL":
                self.report(t, "operator = of NATURAL JOIN", self.snippet(i))
            if w == "USING" and nxt and nxt.is_("(") and self.after_join(i):
                self.report(t, "operator = of JOIN ... USING", self.snippet(i))
            if w == "IN" and not self.in_is_syntax(i, statement, depth, inside):
                self.report(t, "operator = of IN", self.snippet(i))
            if nxt and nxt.word() == "AS" and i + 2 < n and toks[i + 2].is_("("):
                ctes.add(t.value)

            # relations
            if w in ("FROM", "JOIN") and inside not in FROM_INSIDE:
                from_list = [depth, True]
                i += 1
                continue
            if (w == "UPDATE" and at_start) or (w == "INTO" and first == "INSERT") \
                    or (w in ("LOCK", "TRUNCATE") and at_start) or (w == "TABLE" and at_start):
                i = self.relation(i + 1, ctes)
                continue
            if from_list and depth == from_list[0]:
                if from_list[1] and w not in ("LATERAL", "ONLY"):
                    from_list[1] = False
                    if not self.is_call_ahead(i):
                        i = self.relation(i, ctes)
                        continue
                elif w in FROM_END:
                    from_list = None

            # calls
            if nxt and nxt.is_("("):
                if prev and prev.is_("."):
                    self.qualified_by(toks[i - 2], "function", t.value, i)
                elif self.is_call(i, from_list is not None and depth == from_list[0]):
                    self.report(t, f"function {t.value}", self.call_text(i))
                i += 1
                continue

            # typed literals: name 'text', schema.name 'text'
            if nxt and nxt.kind == "string" and nxt.quote != "$" and not (prev and prev.is_(".")):
                if w not in BEFORE_LITERAL and w not in KEYWORD_TYPES:
                    self.report(t, f"type {t.value} of a literal", self.snippet(i))
            if nxt and nxt.is_(".") and i + 3 < n and toks[i + 2].kind == "ident" and toks[i + 3].kind == "string":
                self.qualified_by(t, "type of a literal", toks[i + 2].value, i)
            i += 1
        self.reg_literals()

    # --- the rules' helpers --------------------------------------------------------

    def snippet(self, i):
        """The source line of token i, its spaces collapsed."""
        start = self.source.rfind("\n", 0, self.toks[i].start) + 1
        end = self.source.find("\n", self.toks[i].start)
        return " ".join(self.source[start:end if end >= 0 else len(self.source)].split())

    def matching(self, j):
        """The index of the parenthesis that closes the one at j."""
        depth = 0
        for k in range(j, len(self.toks)):
            if self.toks[k].is_("("):
                depth += 1
            elif self.toks[k].is_(")"):
                depth -= 1
                if depth == 0:
                    return k
        return len(self.toks) - 1

    def call_text(self, i):
        """The text of the call whose name is token i."""
        k = self.matching(i + 1)
        text = " ".join(self.source[self.toks[i].start:self.toks[k].end].split())
        return text if len(text) <= 120 else text[:117] + "..."

    def is_call_ahead(self, i):
        """Whether a FROM item at token i is a function (name( or schema.name()."""
        toks = self.toks
        return (i + 1 < len(toks) and toks[i + 1].is_("(")) or \
            (i + 3 < len(toks) and toks[i + 1].is_(".") and toks[i + 3].is_("("))

    def is_call(self, i, in_from):
        """Whether word i, before a parenthesis, calls a function of its name."""
        t, prev = self.toks[i], self.toks[i - 1] if i else None
        w = t.word()
        if w in STANDARD_IF:
            close, depth = self.matching(i + 1), 0
            for k in range(i + 2, close):
                tk = self.toks[k]
                if tk.is_("(") or tk.is_("["):
                    depth += 1
                elif tk.is_(")") or tk.is_("]"):
                    depth -= 1
                elif depth == 0 and tk.word() in STANDARD_IF[w]:
                    return False
            return True
        if w in SYNTAX_BEFORE_PAREN or w in KEYWORD_TYPES or w == "NULLIF":
            return False
        if prev is not None and prev.word() in ("WITH", "RECURSIVE"):
            return False  # a CTE's column list
        # an alias's column list in a FROM list: f() AS s(a, b), f() s(a, b), tbl t(a)
        if in_from and prev is not None and (prev.word() == "AS" or prev.is_(")")
                                             or (prev.kind == "ident" and prev.word() not in SYNTAX_BEFORE_PAREN)):
            return False
        return True

    def in_case_expr(self, i):
        """Whether the THEN or ELSE before token i is a CASE expression's."""
        level = 0
        for k in range(i - 2, -1, -1):
            tk = self.toks[k]
            w = tk.word()
            if tk.is_(";"):
                return False
            if w == "END":
                after = self.toks[k + 1].word() if k + 1 < len(self.toks) else None
                if after not in ("IF", "LOOP", "CASE"):
                    level += 1
            elif w == "CASE" and not (k and self.toks[k - 1].word() == "END"):
                if level == 0:
                    return not self.statement_start(k)
                level -= 1
        return False

    def statement_start(self, k):
        prev = self.toks[k - 1] if k else None
        return prev is None or prev.is_(";") or prev.word() in STATEMENT_AFTER

    def is_label_end(self, k):
        return k >= 2 and self.toks[k].is_(">>") and self.toks[k - 2].is_("<<")

    def after_join(self, i):
        """Whether the USING at i is a join's (JOIN before it, at its depth, no ON between)."""
        depth = 0
        for k in range(i - 1, -1, -1):
            tk = self.toks[k]
            if tk.is_(")"):
                depth += 1
            elif tk.is_("("):
                depth -= 1
                if depth < 0:
                    return False
            elif depth == 0:
                if tk.word() == "JOIN":
                    return True
                if tk.word() in ("ON", "RAISE", "EXECUTE", "DELETE", "SELECT") or tk.is_(";"):
                    return False
        return False

    def in_is_syntax(self, i, statement, depth, inside):
        """The IN of FOR x IN, FOREACH x IN ARRAY, LOCK ... IN ... MODE and position(a IN b)."""
        if inside == "POSITION":
            return True
        first = statement[0].word() if statement else None
        if depth == 0 and first in ("FOR", "FOREACH", "LOCK"):
            return next(tk for tk in statement if tk.word() == "IN") is self.toks[i]
        return False

    def declaration(self, i):
        """A PL/pgSQL declaration (its name at i): its type, then its default as
        an expression. Returns the index after its ;."""
        toks, n = self.toks, len(self.toks)
        j = i + 1
        if j < n and toks[j].word() == "CONSTANT":
            j += 1
        if j < n and toks[j].word() not in ("ALIAS", "CURSOR", "NO", "SCROLL"):
            j = self.type_name(j, "type of variable " + toks[i].value)
        k, depth = j, 0
        while k < n and not (toks[k].is_(";") and depth == 0):
            depth += toks[k].is_("(") - toks[k].is_(")")
            k += 1
        rest = toks[j:k]
        while rest and (rest[0].word() in ("COLLATE", "NOT", "NULL", "DEFAULT", "ALIAS", "FOR")
                        or rest[0].is_(":=") or rest[0].is_("=")):
            if rest[0].word() == "COLLATE":
                self.collation(j + 1)
                rest, j = rest[2:], j + 2
                if rest and rest[0].is_("."):
                    rest, j = rest[2:], j + 2
                continue
            rest, j = rest[1:], j + 1
        if rest:
            self.sub("", rest, self.source)
        return k + 1

    def type_name(self, j, what):
        """Checks the type name at token j; returns the index after it."""
        toks, n = self.toks, len(self.toks)
        if j >= n or toks[j].kind != "ident":
            return j
        t = toks[j]
        if j + 2 < n and toks[j + 1].is_(".") and toks[j + 2].kind == "ident":
            self.qualified_by(t, what, toks[j + 2].value, j)
            j += 3
        elif t.word() in KEYWORD_TYPES:
            j += 1
            while j < n and toks[j].word() in TYPE_WORDS:
                j += 1
        elif j + 2 < n and toks[j + 1].is_("%"):
            # x%TYPE copies a variable's type; t%ROWTYPE names a relation
            if toks[j + 2].word() != "TYPE":
                self.report(t, f"relation {t.value} of %ROWTYPE", self.snippet(j))
            return j + 3
        else:
            self.report(t, f"{what} {t.value}", self.snippet(j))
            j += 1
        if j < n and toks[j].is_("("):
            j = self.matching(j) + 1  # a type modifier
        while j < n and toks[j].is_("["):
            while j < n and not toks[j].is_("]"):
                j += 1
            j += 1
        return j

    def collation(self, j):
        toks, n = self.toks, len(self.toks)
        if j + 2 < n and toks[j + 1].is_(".") and toks[j + 2].kind == "ident":
            self.qualified_by(toks[j], "collation", toks[j + 2].value, j)
            return j + 3
        if j < n:
            self.report(toks[j], f"collation {toks[j].value}", self.snippet(j))
        return j + 1

    def relation(self, j, ctes):
        """The relation named at token j; returns the index after its name."""
        toks, n = self.toks, len(self.toks)
        while j < n and toks[j].word() in ("ONLY", "TABLE", "LATERAL"):
            j += 1
        if j >= n or toks[j].kind != "ident" or self.is_call_ahead(j):
            return j  # a subquery, or a function (the call rule's)
        if j + 2 < n and toks[j + 1].is_(".") and toks[j + 2].kind == "ident":
            self.qualified_by(toks[j], "relation", toks[j + 2].value, j)
            return j + 3
        if toks[j].value not in ctes:
            self.report(toks[j], f"relation {toks[j].value}", self.snippet(j))
        return j + 1

    def operator_construct(self, i):
        """OPERATOR(schema.op); returns the index after its )."""
        close = self.matching(i + 1)
        self.operator_ends.add(close)
        inner = self.toks[i + 2:close]
        if len(inner) >= 3 and inner[1].is_("."):
            self.qualified_by(inner[0], "operator", "".join(t.value for t in inner[2:]), i)
        else:
            self.report(self.toks[i], "operator " + "".join(t.value for t in inner), self.snippet(i))
        return close + 1

    def operator(self, i, statement, depth):
        toks, n = self.toks, len(self.toks)
        t = toks[i]
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < n else None
        operand_end = prev is not None and (
            (prev.kind == "ident" and (prev.quote or prev.word() in VALUE_WORDS
                                       or prev.word() not in SYNTAX_BEFORE_PAREN | BEFORE_LITERAL))
            or prev.kind in ("number", "string", "param")
            or ((prev.is_(")") or prev.is_("]")) and i - 1 not in self.operator_ends))
        v = t.value
        if v == "*" and (not operand_end or prev.is_(".")):
            return i + 1  # SELECT *, count(*), t.*
        if v == "%" and nxt is not None and nxt.word() in ("TYPE", "ROWTYPE"):
            return i + 2
        if v == "-" and not operand_end and nxt is not None and nxt.kind == "number":
            return i + 1  # a negative constant (gram.y's doNegate)
        if v == "=" and self.is_assignment(i, statement, depth):
            return i + 1
        self.report(t, f"operator {v}", self.snippet(i))
        return i + 1

    def is_assignment(self, i, statement, depth):
        """The = of x = e (PL/pgSQL), RAISE ... USING name = e, GET DIAGNOSTICS
        x = item, SET name = value and UPDATE ... SET col = e."""
        toks = self.toks
        if depth != 0 or not statement or statement[-1] is not toks[i]:
            return False
        first = statement[0].word()
        if first in ("SET", "RESET", "GET"):
            return True
        if first == "RAISE":
            return toks[i - 1].kind == "ident" and (toks[i - 2].word() == "USING" or toks[i - 2].is_(","))
        if first == "UPDATE":
            k = len(statement) - 2
            while k > 0 and not (statement[k].word() == "SET" or statement[k].is_(",")):
                k -= 1
            words = [tk.word() for tk in statement]
            return k > 0 and "SET" in words and "WHERE" not in words and self.is_target(statement[k + 1:-1])
        return self.plpgsql and self.is_target(statement[:-1])

    @staticmethod
    def is_target(target):
        """Whether tokens are an assignment's target: x, x.f, x[i]."""
        if not target or target[0].kind != "ident" or target[0].word() in SYNTAX_BEFORE_PAREN | BEFORE_LITERAL:
            return False
        k, depth = 1, 0
        while k < len(target):
            tk = target[k]
            if tk.is_("["):
                depth += 1
            elif tk.is_("]"):
                depth -= 1
            elif depth == 0:
                if not (tk.is_(".") and k + 1 < len(target) and target[k + 1].kind == "ident"):
                    return False
                k += 1
            k += 1
        return depth == 0

    def execute(self, i):
        """EXECUTE 'sql' or EXECUTE [pg_catalog.]format('sql', ...): its template, as SQL
        (%I and %s as a qualified name, %L as a literal)."""
        toks, n = self.toks, len(self.toks)
        j = i + 1
        if j + 3 < n and toks[j].kind == "ident" and toks[j + 1].is_(".") and toks[j + 2].value == "format" \
                and toks[j + 3].is_("("):
            j += 4
        elif j + 1 < n and toks[j].value == "format" and toks[j + 1].is_("("):
            j += 2
        if j >= n or toks[j].kind != "string" or (j + 1 < n and toks[j + 1].is_("||")):
            self.report(toks[i], "EXECUTE of a statement that is no literal template", self.snippet(i))
            return
        name = f'"{ARGUMENT}".x'
        template = re.sub(r"%[IsL%]", lambda m: {"%I": name, "%s": name, "%L": "''", "%%": "%"}[m.group(0)], toks[j].value)
        try:
            self.sub(" (EXECUTE)", tokens(template, toks[j].line), template)
        except SyntaxError as e:
            self.report(toks[j], "EXECUTE of a template this check cannot read", str(e))

    def reg_literals(self):
        """'x'::pg_catalog.regclass and the like resolve their text through the
        search_path when the body runs."""
        toks = self.toks
        for k in range(len(toks) - 2):
            if toks[k].kind == "string" and toks[k + 1].is_("::"):
                j = k + 2
                if j + 2 < len(toks) and toks[j + 1].is_("."):
                    j += 2
                typ = toks[j].value
                if re.fullmatch(r"reg(class|proc|procedure|oper|operator|type|config|dictionary|collation)", typ):
                    m = re.match(r'\s*("(?:[^"]|"")*"|[^."(\s]+)\s*\.', toks[k].value)
                    schema = None
                    if m:
                        schema = m.group(1)[1:-1].replace('""', '"') if m.group(1).startswith('"') else m.group(1).lower()
                    if schema in SCHEMAS:
                        self.qualified[SCHEMAS[schema]] += 1
                    else:
                        self.report(toks[k], f"name in a {typ} literal", self.snippet(k))


def functions(script):
    """(name, language, body token) of each CREATE FUNCTION or PROCEDURE;
    body None for a SQL-standard body."""
    statement = []
    for t in tokens(script) + [Token("punct", ";", 0, 0, 0)]:
        if not t.is_(";"):
            statement.append(t)
            continue
        words = [x.word() for x in statement[:6]]
        if words[:1] == ["CREATE"] and ("FUNCTION" in words or "PROCEDURE" in words):
            k = (words.index("FUNCTION") if "FUNCTION" in words else words.index("PROCEDURE")) + 1
            name = statement[k + 2].value if statement[k + 1].is_(".") else statement[k].value
            language = body = None
            for a, b in zip(statement, statement[1:]):
                if a.word() == "LANGUAGE":
                    language = b.value
                if a.word() == "AS" and b.kind == "string":
                    body = b
            yield name, language, body
        statement = []


def check(script):
    """(bodies, the qualified names per schema, the problems) of a script."""
    bodies, qualified, problems = 0, collections.Counter(), []
    for name, language, body in functions(script):
        if body is None:
            continue
        bodies += 1
        if language not in ("plpgsql", "sql"):
            problems.append((body.line, f"line {body.line}: {name}: a body in LANGUAGE {language}, which this check cannot read"))
            continue
        checker = Checker(name, language == "plpgsql")
        try:
            checker.run(tokens(body.value, body.line), body.value)
        except SyntaxError as e:
            problems.append((body.line, f"line {body.line}: {name}: cannot read the body: {e}"))
            continue
        qualified += checker.qualified
        problems += checker.problems
    return bodies, qualified, [p for _, p in sorted(problems, key=lambda p: p[0])]


# The self-test's cases: each line marked "-- found: WHAT" must be reported
# as WHAT (" | " between two), no other line.
CASES = r"""
CREATE FUNCTION bound_at_install(x integer) RETURNS integer LANGUAGE sql IMMUTABLE RETURN abs(x) + 1;
CREATE FUNCTION cases(t text, b bit(130), n bigint) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $body$
DECLARE
    a pg_catalog.text := pg_catalog.substr(t, 1, 2);
    c text;                                                    -- found: type of variable c text
    d integer := 1;
    e double precision DEFAULT 2;
    f pg_catalog.int8[] := ARRAY[1]::pg_catalog.int8[];
    g numeric(10, 2);
    h timestamp with time zone;
    k uuid := pg_catalog.gen_random_uuid();                    -- found: type of variable k uuid
    m pg_catalog.text COLLATE pg_catalog."C" := 'x';
    r bigint := length(t);                                     -- found: function length
    s d%TYPE;
BEGIN
    <<outer>>
    FOR i IN 1 .. 3 LOOP
        d := d OPERATOR(pg_catalog.+) i;
        d = d OPERATOR(pg_catalog.-) 1;
    END LOOP outer;
    a := substring(t FROM '[a-z]+') OPERATOR(pg_catalog.||) substring(t FROM 1 FOR 2) OPERATOR(pg_catalog.||) pg_catalog.btrim(t);
    a := substring(t, 1, 2);                                   -- found: function substring
    a := substring(b FROM 3 FOR 64)::pg_catalog.text;
    a := substring(t SIMILAR 'x' ESCAPE '#');
    a := overlay(t PLACING 'x' FROM 1);
    a := overlay(t, 'x', 1);                                   -- found: function overlay
    d := position('x' IN t) OPERATOR(pg_catalog.+) EXTRACT(epoch FROM pg_catalog.now())::integer;
    a := trim(BOTH 'x' FROM t) OPERATOR(pg_catalog.||) trim(t);
    a := COALESCE(a, 'x') OPERATOR(pg_catalog.||) GREATEST(a, t) OPERATOR(pg_catalog.||) LEAST(a, t);
    a := CASE WHEN d OPERATOR(pg_catalog.>) 0 THEN 'p' ELSE 'n' END;
    a := CASE d WHEN 1 THEN 'one' ELSE 'other' END;            -- found: operator = of CASE x WHEN
    a := NULLIF(a, 'x');                                       -- found: operator = of NULLIF
    IF d IN (1, 2) THEN                                        -- found: operator = of IN
        RAISE EXCEPTION 'bad %', d USING ERRCODE = 'data_exception', DETAIL = pg_catalog.format('%s', d);
    END IF;
    IF d BETWEEN 1 AND 2 THEN NULL; END IF;                    -- found: operators >= and <= of BETWEEN
    IF a LIKE 'x%' THEN NULL; END IF;                          -- found: operator of LIKE
    IF a IS DISTINCT FROM t THEN NULL; END IF;                 -- found: operator = of IS DISTINCT FROM
    IF a IS NOT DISTINCT FROM t OR a ILIKE t THEN NULL; END IF; -- found: operator = of IS DISTINCT FROM | operator of ILIKE
    IF d NOT IN (3) THEN NULL; END IF;                         -- found: operator = of IN
    IF a SIMILAR TO 'x' THEN NULL; END IF;                     -- found: operator of SIMILAR
    IF d = 1 THEN NULL; END IF;                                -- found: operator =
    CASE d                                                     -- found: operator = of CASE x WHEN
        WHEN 1 THEN a := 'one';
        ELSE a := 'other';
    END CASE;
    CASE WHEN d OPERATOR(pg_catalog.=) 1 THEN a := 'one'; ELSE a := 'two'; END CASE;
    FOREACH d IN ARRAY f LOOP NULL; END LOOP;
    d := d + 1;                                                -- found: operator +
    d := - d;                                                  -- found: operator -
    d := +1;                                                   -- found: operator +
    d := -1;
    d := d OPERATOR(pg_catalog.*) -1;
    a := t::text;                                              -- found: type of a cast text
    a := t::pg_catalog.text;
    a := '{}'::json::pg_catalog.text;                          -- found: type of a cast json
    a := CAST(t AS varchar);
    a := CAST(t AS text);                                      -- found: type in CAST text
    n := n::bigint OPERATOR(pg_catalog.+) '1'::int8;           -- found: type of a cast int8
    h := timestamptz '2020-01-01';                             -- found: type timestamptz of a literal
    h := pg_catalog.timestamptz '2020-01-01';
    h := timestamp with time zone '2020-01-01' OPERATOR(pg_catalog.+) interval '1 day';
    a := t COLLATE "C";                                        -- found: collation C
    a := idgen_sql_helper(t);                                  -- found: function idgen_sql_helper
    a := evil.substr(t, 1, 1);                                 -- found: function evil.substr
    a := left(t, 1);                                           -- found: function left
    a := U&"pg_idgen_sql_unbound".helper(t) OPERATOR(pg_catalog.||) U&"pg_idgen_sql_unboun\0064".helper(t);
    SELECT pg_catalog.count(*) INTO d FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace s ON s.oid OPERATOR(pg_catalog.=) c.relnamespace;
    SELECT pg_catalog.count(*) INTO d FROM pg_class;          -- found: relation pg_class
    SELECT pg_catalog.count(*) INTO d FROM pg_catalog.pg_class c, pg_namespace s; -- found: relation pg_namespace
    SELECT pg_catalog.count(*) INTO d FROM pg_catalog.pg_class c JOIN pg_catalog.pg_class x USING (oid); -- found: operator = of JOIN ... USING
    SELECT pg_catalog.count(*) INTO d FROM pg_catalog.pg_class NATURAL JOIN pg_catalog.pg_class; -- found: operator = of NATURAL JOIN
    SELECT pg_catalog.string_agg(ch, '' ORDER BY k) INTO a FROM pg_catalog.regexp_split_to_table(t, '') WITH ORDINALITY AS s(ch, k);
    SELECT pg_catalog.count(*) INTO d FROM unnest(f) u(x);     -- found: function unnest
    WITH w AS (SELECT 1 AS one) SELECT w.one INTO d FROM w;
    LOCK TABLE pg_idgen_sql_unbound.lock_table IN SHARE MODE;
    LOCK TABLE lock_table IN SHARE MODE;                       -- found: relation lock_table
    INSERT INTO log_table VALUES (1);                          -- found: relation log_table
    UPDATE pg_idgen_sql_unbound.log_table SET x = 1, y = 2 WHERE z = 3; -- found: operator =
    DELETE FROM pg_idgen_sql_unbound.log_table;
    d := pg_catalog.nextval(E'pg_idgen_sql_unbound.seq'::pg_catalog.regclass);
    d := pg_catalog.nextval('seq'::pg_catalog.regclass);       -- found: name in a regclass literal
    d := pg_catalog.nextval('public.seq'::pg_catalog.regclass); -- found: name in a regclass literal
    EXECUTE pg_catalog.format('SELECT pg_catalog.length(%L) FROM %I', t, a);
    EXECUTE pg_catalog.format('SELECT length(%L)', t);         -- found: function length
    EXECUTE 'SELECT 1 + 1';                                    -- found: operator +
    EXECUTE a;                                                 -- found: EXECUTE of a statement that is no literal template
    PERFORM pg_catalog.set_config('x.y', 'z' /* a comment: length(t) */, false); -- a comment: length(t), d + 1
    RETURN a OPERATOR(pg_catalog.||) E'it''s \' length(t) ' OPERATOR(pg_catalog.||) $q$ substring(t, 1, 2) $q$;
END
$body$;
CREATE FUNCTION cases_sql_string(t text) RETURNS integer LANGUAGE sql IMMUTABLE AS '
    SELECT length(t)                                           -- found: function length
';
"""


def self_test():
    _, _, problems = check(CASES)
    got = collections.Counter()
    for p in problems:
        m = re.match(r"line (\d+): [^:]+: (.*), unqualified: ", p)
        got[(int(m.group(1)), m.group(2))] += 1
    want = collections.Counter()
    for number, text in enumerate(CASES.split("\n"), 1):
        m = re.search(r"-- found: (.*?)\s*$", text)
        for what in (m.group(1).split(" | ") if m else []):
            want[(number, what)] += 1
    print(f"cases={sum(want.values())}")
    for (number, what), count in sorted((want - got).items()):
        print(f"not reported: line {number}: {what}")
    for (number, what), count in sorted((got - want).items()):
        print(f"reported, but no case: line {number}: {what}")
    return 0 if want == got else 1


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        sys.exit("usage: sql_qualified.py SCRIPT | --self-test")
    with open(argv[1], encoding="utf-8") as f:
        bodies, qualified, problems = check(f.read())
    print(f"bodies={bodies} pg_catalog={qualified['pg_catalog']} own={qualified['own']}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
