/*
 * test-mcp-schema.c - each tool's inputSchema, as tools/list shows it,
 * against what the tool's checks accept.  The schema is walked: values
 * are made from each property's declared type and bounds, nothing of it
 * is copied here.  "Accepted" is what the agent sees: the tool's checks
 * pass and, when they build a control request (run, session_start: an
 * exec), the server's parse of that request takes it too.
 *
 * For every tool: its required properties (plus, where the checks need
 * one, one of its optional ones) are accepted; each property with a value
 * of each type it declares is accepted (a number: a fraction; null where
 * it is declared); a value of another type is refused; each required
 * property missing is refused; an unknown property is ignored; enum
 * values are accepted and others refused; minimum, maximum, minLength,
 * maxLength, minItems hold at the bound and fail past it (a number's
 * bounds by a fraction past them); a string without maxLength takes a
 * long one.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "control/proto.h"
#include "mcp/mcpd.h"
#include "mcp/tools.h"
#include "base/util.h"
#include "tests/tap.h"

/*
 * A string this long is taken where the schema sets no maxLength: well
 * past any bound a host list or a path might have had, well within the
 * protocol's request line.
 */
#define TEST_LONG	(64 * 1024)

/* The JSON Schema type of a value (an integral number is "integer"). */
static const char *
type_of(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "object";
	case JSON_ARRAY:
		return "array";
	case JSON_STRING:
		return "string";
	case JSON_INTEGER:
		return "integer";
	case JSON_REAL:
		return "number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "boolean";
	default:
		return "null";
	}
}

/* Whether the schema ps declares type (its "type": a name or an array). */
static bool
declares(json_t *ps, const char *type)
{
	json_t	*t = json_object_get(ps, "type"), *v;
	size_t	 i;

	if (json_is_string(t))
		return strcmp(json_string_value(t), type) == 0;
	json_array_foreach(t, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), type) == 0)
			return true;
	return false;
}

/* Whether v is of a type ps declares (an integer is a number too). */
static bool
has_type(json_t *v, json_t *ps)
{
	return declares(ps, type_of(v)) ||
	    (json_is_integer(v) && declares(ps, "number"));
}

/*
 * Whether the tool takes args: its checks, then the server's parse of
 * the request they build.  *why (when not NULL) gets the refusal.
 */
static bool
accepts(const struct mcp_tool *t, json_t *args, char **why)
{
	struct proto_request	*pr;
	struct proto_error	 err;
	struct buf		 req = { 0 };
	char			*msg = NULL;

	if (t->check(args, &req, &msg) != 0) {
		buf_free(&req);
		if (why != NULL)
			*why = msg;
		else
			free(msg);
		return false;
	}
	if (req.len == 0)
		return true;
	pr = proto_parse(req.data, req.len, &err);
	buf_free(&req);
	if (pr == NULL && why != NULL)
		*why = xasprintf("the server: %s", err.message);
	proto_request_free(pr);
	return pr != NULL;
}

/*
 * The type a property's schema declares first other than null (its value
 * of choice), or "" for none.
 */
static const char *
declared(json_t *ps)
{
	json_t	*t = json_object_get(ps, "type"), *v;
	size_t	 i;

	if (json_is_string(t))
		return json_string_value(t);
	json_array_foreach(t, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), "null") != 0)
			return json_string_value(v);
	return "";
}

/* An integer keyword of a schema, or -1 when absent. */
static json_int_t
keyword(json_t *ps, const char *key)
{
	json_t	*v = json_object_get(ps, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

/*
 * A string n characters long: "x" then blanks, which keeps a value valid
 * where its content counts too (a list of hosts, a path).
 */
static json_t *
string_of(size_t n)
{
	char	*s = xmalloc(n + 1);
	json_t	*v;

	memset(s, ' ', n);
	if (n > 0)
		s[0] = 'x';
	s[n] = '\0';
	v = json_string(s);
	free(s);
	return v;
}

/* A value the property's schema allows, at its lower bounds. */
static json_t *
valid(json_t *ps)
{
	const char	*t = declared(ps);
	json_t		*e = json_object_get(ps, "enum"), *v, *item;
	json_int_t	 n, i;

	if (json_is_array(e) && json_array_size(e) > 0)
		return json_incref(json_array_get(e, 0));
	if (strcmp(t, "string") == 0)
		return string_of(keyword(ps, "minLength") > 1 ?
		    (size_t)keyword(ps, "minLength") : 1);
	if (strcmp(t, "integer") == 0 || strcmp(t, "number") == 0) {
		v = json_object_get(ps, "minimum");
		return json_is_number(v) ? json_incref(v) : json_integer(1);
	}
	if (strcmp(t, "boolean") == 0)
		return json_true();
	if (strcmp(t, "array") == 0) {
		v = json_array();
		n = keyword(ps, "minItems") > 1 ? keyword(ps, "minItems") : 1;
		for (i = 0; i < n; i++)
			json_array_append_new(v, valid(json_object_get(ps,
			    "items")));
		return v;
	}
	if (strcmp(t, "object") == 0) {
		v = json_object();
		item = json_object_get(ps, "additionalProperties");
		if (json_is_object(item))
			json_object_set_new(v, "K", valid(item));
		return v;
	}
	return json_null();
}

/* A copy of args with key set to v (consumed; NULL: key removed). */
static json_t *
with(json_t *args, const char *key, json_t *v)
{
	json_t	*a = json_deep_copy(args);

	if (v != NULL)
		json_object_set_new(a, key, v);
	else
		json_object_del(a, key);
	return a;
}

/* Whether the tool takes args with key set to v (consumed). */
static bool
takes(const struct mcp_tool *t, json_t *args, const char *key, json_t *v,
    char **why)
{
	json_t	*a = with(args, key, v);
	bool	 r = accepts(t, a, why);

	json_decref(a);
	return r;
}

/*
 * One check that t takes (want) or refuses args with key set to v
 * (consumed; NULL: key removed); what says what v is.
 */
static void
expect(const struct mcp_tool *t, json_t *args, const char *key, json_t *v,
    bool want, const char *what)
{
	char	*why = NULL, *s;
	bool	 got;

	s = v != NULL ? json_dumps(v, JSON_ENCODE_ANY) : xstrdup("nothing");
	if (strlen(s) > 40)
		strcpy(s + 33, "...\"");
	got = takes(t, args, key, v, &why);
	if (!ok(got == want, "%s: %s %s: %s", t->name, want ? "takes" :
	    "refuses", key, what))
		printf("#   with %s: %s\n", s, why != NULL ? why : "accepted");
	free(why);
	free(s);
}

/*
 * The arguments a call needs at least: the required properties, plus one
 * optional property when the checks want one of them (names in alts).
 * NULL when nothing is accepted.
 */
static json_t *
base_args(const struct mcp_tool *t, json_t *props, json_t *required,
    json_t *alts)
{
	json_t		*base = json_object(), *v, *ps, *first = NULL;
	const char	*key;
	size_t		 i;

	json_array_foreach(required, i, v)
		json_object_set_new(base, json_string_value(v),
		    valid(json_object_get(props, json_string_value(v))));
	if (accepts(t, base, NULL))
		return base;
	json_object_foreach(props, key, ps) {
		if (json_object_get(base, key) != NULL ||
		    !takes(t, base, key, valid(ps), NULL))
			continue;
		json_array_append_new(alts, json_string(key));
		if (first == NULL)
			first = with(base, key, valid(ps));
	}
	json_decref(base);
	return first;
}

/* Whether name is in the array of strings a. */
static bool
listed(json_t *a, const char *name)
{
	json_t	*v;
	size_t	 i;

	json_array_foreach(a, i, v)
		if (strcmp(json_string_value(v), name) == 0)
			return true;
	return false;
}

/*
 * A value of type, one of those ps declares, within its bounds: null,
 * a fraction for a number (its minimum and a half, within its maximum),
 * else the value valid() makes.
 */
static json_t *
value_of(json_t *ps, const char *type)
{
	json_t	*v = valid(ps), *max = json_object_get(ps, "maximum");
	double	 x;

	if (strcmp(type, "null") == 0) {
		json_decref(v);
		return json_null();
	}
	if (strcmp(type, "number") != 0 || !json_is_number(v))
		return v;
	x = json_number_value(v) + 0.5;
	json_decref(v);
	if (json_is_number(max) && x > json_number_value(max))
		x -= 0.5;
	return json_real(x);
}

/*
 * A value of each type the property declares is taken; values of other
 * types are refused.
 */
static void
test_types(const struct mcp_tool *t, json_t *ctx, const char *key,
    json_t *ps)
{
	static const char *const types[] = { "string", "integer", "number",
	    "boolean", "array", "object", "null" };
	json_t		*others[7], *v = valid(ps);
	size_t		 i;

	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (declares(ps, types[i]))
			expect(t, ctx, key, value_of(ps, types[i]), true,
			    types[i]);
	others[0] = json_string("x");
	others[1] = json_true();
	others[2] = json_integer(7);
	others[3] = json_real(json_is_number(v) ? json_number_value(v) + 0.5 :
	    2.5);
	others[4] = json_pack("[s]", "x");
	others[5] = json_pack("{s:s}", "k", "x");
	others[6] = json_null();
	for (i = 0; i < 7; i++) {
		if (!has_type(others[i], ps))
			expect(t, ctx, key, json_incref(others[i]), false,
			    type_of(others[i]));
		json_decref(others[i]);
	}
	json_decref(v);
}

/* Bounds: enum, minimum, maximum, lengths, items. */
static void
test_bounds(const struct mcp_tool *t, json_t *ctx, const char *key,
    json_t *ps)
{
	json_t		*e = json_object_get(ps, "enum"), *v, *b;
	json_int_t	 n;
	size_t		 i;
	bool		 integral = !declares(ps, "number");

	json_array_foreach(e, i, v)
		expect(t, ctx, key, json_incref(v), true, "a value of its enum");
	if (json_is_array(e))
		expect(t, ctx, key, json_sprintf("not-%s",
		    json_string_value(json_array_get(e, 0))), false,
		    "a value outside its enum");
	if (json_is_number(b = json_object_get(ps, "minimum"))) {
		expect(t, ctx, key, json_incref(b), true, "its minimum");
		expect(t, ctx, key, integral ?
		    json_integer(json_integer_value(b) - 1) :
		    json_real(json_number_value(b) - 0.5), false,
		    "below its minimum");
	}
	if (json_is_number(b = json_object_get(ps, "maximum"))) {
		expect(t, ctx, key, json_incref(b), true, "its maximum");
		expect(t, ctx, key, integral ?
		    json_integer(json_integer_value(b) + 1) :
		    json_real(json_number_value(b) + 0.5), false,
		    "above its maximum");
	}
	if ((n = keyword(ps, "maxLength")) >= 0) {
		expect(t, ctx, key, string_of((size_t)n), true,
		    "its maxLength");
		expect(t, ctx, key, string_of((size_t)n + 1), false,
		    "longer than its maxLength");
	} else if (declares(ps, "string") && !json_is_array(e))
		expect(t, ctx, key, string_of(TEST_LONG), true,
		    "a long one (no maxLength)");
	if ((n = keyword(ps, "minLength")) > 0)
		expect(t, ctx, key, string_of((size_t)n - 1), false,
		    "shorter than its minLength");
	if ((n = keyword(ps, "minItems")) > 0) {
		v = valid(ps);
		while ((json_int_t)json_array_size(v) >= n)
			json_array_remove(v, 0);
		expect(t, ctx, key, v, false, "fewer items than its minItems");
	}
	if (json_is_object(b = json_object_get(ps, "items"))) {
		v = valid(ps);
		json_array_append_new(v, strcmp(declared(b), "string") == 0 ?
		    json_integer(7) : json_string("x"));
		expect(t, ctx, key, v, false, "an item of another type");
	}
	if (json_is_object(b = json_object_get(ps, "additionalProperties")))
		expect(t, ctx, key, json_pack("{s:o}", "K",
		    strcmp(declared(b), "string") == 0 ? json_integer(7) :
		    json_string("x")), false, "a member of another type");
}

/* One tool's inputSchema against its checks. */
static void
test_tool(json_t *entry)
{
	const char		*name = json_string_value(json_object_get(entry,
				    "name"));
	const struct mcp_tool	*t = mcp_tool_find(name);
	json_t			*schema = json_object_get(entry, "inputSchema");
	json_t			*props = json_object_get(schema, "properties");
	json_t			*required = json_object_get(schema, "required");
	json_t			*alts = json_array(), *base, *ctx, *ps, *v;
	const char		*key;
	char			*s;
	size_t			 i;

	if (!ok(t != NULL && strcmp(t->name, name) == 0,
	    "%s: a tool of the table", name))
		return;
	ok(strcmp(declared(schema), "object") == 0 && json_is_object(props),
	    "%s: its inputSchema is an object with properties", name);
	base = base_args(t, props, required, alts);
	if (!ok(base != NULL, "%s: takes its required properties%s", name,
	    json_array_size(alts) > 0 ? " and one optional one" : "")) {
		json_decref(alts);
		return;
	}
	if (json_array_size(alts) > 0) {
		s = json_dumps(alts, JSON_COMPACT);
		diag("%s needs one of %s, which the schema cannot say to every "
		    "client", name, s);
		free(s);
	}
	json_array_foreach(required, i, v)
		expect(t, base, json_string_value(v), NULL, false,
		    "the call without it (required)");
	expect(t, base, "no_such_property", json_string("x"), true,
	    "an unknown property (ignored)");
	json_object_foreach(props, key, ps) {
		ctx = json_deep_copy(base);
		if (listed(alts, key)) {
			/* Alone, without the other alternatives. */
			json_array_foreach(alts, i, v)
				json_object_del(ctx, json_string_value(v));
		}
		test_types(t, ctx, key, ps);
		test_bounds(t, ctx, key, ps);
		json_decref(ctx);
	}
	json_decref(base);
	json_decref(alts);
}

int
main(void)
{
	json_t	*entry;
	size_t	 i;

	json_array_foreach(mcp_tools(MCP_WAIT_S), i, entry)
		test_tool(entry);
	return tap_done();
}
