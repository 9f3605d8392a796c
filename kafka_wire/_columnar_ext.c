/*
 * kafka_wire._columnar_ext: the record loop of `kafka_wire.columnar.decode_to_buffers` in C.
 *
 * Python finds the data batches of a fetch response (batch headers, CRC-32C, aborted transactions,
 * decompression: a few calls per batch) and hands their record sections here; this walks every
 * record once and writes Arrow-ready columns (offsets, timestamps in microseconds, timestamp types,
 * key/value offsets + data + validity bitmaps). In Python that walk costs ~0.3 µs per record in the
 * interpreter, more than everything else together.
 *
 * It accepts only what it fully understands and raises ValueError on anything else (a record that
 * does not add up, a varint longer than its type, offsets that do not increase, arithmetic that
 * would overflow): the caller then decodes with the all-Python decoder, which gives the right
 * answer or the exact CorruptRecordError. So this never has to reproduce error messages.
 *
 * Optional: built by `pip install` (pyproject.toml ext-modules, optional = true); when it is
 * absent kafka_wire.columnar uses the pure-Python path.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* per data batch, 6 int64: start, stop, record count, base offset, timestamp base, LogAppendTime */
#define SPAN_FIELDS 6

/* zig-zag int32 varint (Kafka's varint), at most 5 bytes, never read at or past `end` */
static inline int read_varint(const uint8_t **pp, const uint8_t *end, int32_t *out)
{
    const uint8_t *p = *pp;
    uint32_t u = 0;
    for (int shift = 0; shift <= 28; shift += 7) {
        if (p >= end)
            return -1;
        uint8_t b = *p++;
        if (shift == 28 && b > 0x0F)
            return -1; /* more than 32 bits, or a sixth byte */
        u |= (uint32_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *out = (int32_t)((u >> 1) ^ (0u - (u & 1u)));
            *pp = p;
            return 0;
        }
    }
    return -1;
}

/* zig-zag int64 varint (Kafka's varlong), at most 10 bytes */
static inline int read_varlong(const uint8_t **pp, const uint8_t *end, int64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t u = 0;
    for (int shift = 0; shift <= 63; shift += 7) {
        if (p >= end)
            return -1;
        uint8_t b = *p++;
        if (shift == 63 && b > 0x01)
            return -1;
        u |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *out = (int64_t)((u >> 1) ^ (0ull - (u & 1ull)));
            *pp = p;
            return 0;
        }
    }
    return -1;
}

typedef struct {
    int64_t *offsets;
    int64_t *timestamps;
    int32_t *types;
    int32_t *key_offsets;
    uint8_t *key_data;
    uint8_t *key_valid;
    int32_t *value_offsets;
    uint8_t *value_data;
    uint8_t *value_valid;
    int64_t *headers; /* pairs (output index or -1, position of the header count) */
    Py_ssize_t n, key_nulls, value_nulls, n_headers;
    int64_t key_bytes, value_bytes;
    /* capacities of the output buffers (records, key bytes, value bytes, records with headers) */
    Py_ssize_t n_cap, headers_cap;
    int64_t key_cap, value_cap;
    const char *error;
} out_t;

/* Whether s[0, n) is UTF-8 as Python's strict codec reads it (no overlong forms, no surrogates, nothing
   past U+10FFFF). */
static int utf8_valid(const uint8_t *s, int32_t n)
{
    const uint8_t *end = s + n;
    while (s < end) {
        const uint8_t c = *s;
        if (c < 0x80) {
            s++;
            continue;
        }
        int len;
        if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF)
            len = 3;
        else if (c >= 0xF0 && c <= 0xF4)
            len = 4;
        else
            return 0;
        if (end - s < len)
            return 0;
        for (int k = 1; k < len; k++)
            if ((s[k] & 0xC0) != 0x80)
                return 0;
        if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
            (c == 0xF4 && s[1] > 0x8F))
            return 0;
        s += len;
    }
    return 1;
}

/* One v2 record, as framed: its fields, and where its key, value and headers are. */
typedef struct {
    int32_t offset_delta, key_len, value_len, header_count;
    int64_t timestamp_delta;
    const uint8_t *key, *value, *headers;
} record_t;

/* Parse the record at *pp (never reading at or past `stop`) and move *pp past it. Returns 0, or -1
   with *error set: a record must add up exactly to its length prefix. With `header_keys_utf8`, header keys
   must also be UTF-8 (Kafka's String); the decode path leaves that to the Python that decodes them. */
static inline int next_record(const uint8_t **pp, const uint8_t *stop, record_t *r, const char **error,
                              const int header_keys_utf8)
{
    const uint8_t *p = *pp;
    int32_t len;
    if (read_varint(&p, stop, &len) || len < 6 || len > stop - p) {
        *error = "bad record length";
        return -1;
    }
    const uint8_t *end = p + len;
    p++; /* attributes: unused by record batch v2 */
    if (read_varlong(&p, end, &r->timestamp_delta) || read_varint(&p, end, &r->offset_delta) ||
        read_varint(&p, end, &r->key_len) || r->key_len < -1 || (r->key_len > 0 && r->key_len > end - p)) {
        *error = "bad record header or key";
        return -1;
    }
    r->key = p;
    if (r->key_len > 0)
        p += r->key_len;
    if (read_varint(&p, end, &r->value_len) || r->value_len < -1 || (r->value_len > 0 && r->value_len > end - p)) {
        *error = "bad value length";
        return -1;
    }
    r->value = p;
    if (r->value_len > 0)
        p += r->value_len;
    r->headers = p;
    if (read_varint(&p, end, &r->header_count) || r->header_count < 0) {
        *error = "bad header count";
        return -1;
    }
    for (int32_t h = 0; h < r->header_count; h++) {
        int32_t hk, hv;
        if (read_varint(&p, end, &hk) || hk < 0 || hk > end - p) {
            *error = "bad header key";
            return -1;
        }
        if (header_keys_utf8 && !utf8_valid(p, hk)) {
            *error = "header key is not UTF-8";
            return -1;
        }
        p += hk;
        if (read_varint(&p, end, &hv) || hv < -1 || (hv > 0 && hv > end - p)) {
            *error = "bad header value";
            return -1;
        }
        if (hv > 0)
            p += hv;
    }
    if (p != end) {
        *error = "record does not end where its length says";
        return -1;
    }
    *pp = p;
    return 0;
}

/* Walk one batch's records in data[start, stop). Returns 0, or -1 with o->error set. */
static inline int walk_batch(const uint8_t *data, const int64_t *span, int64_t from, int64_t until, int64_t *prev,
                             out_t *o)
{
    const uint8_t *p = data + span[0];
    const uint8_t *stop = data + span[1];
    const int64_t count = span[2], base = span[3], ts_base = span[4];
    const int log_append = span[5] != 0;
    int64_t kpos = o->key_bytes, vpos = o->value_bytes;
    for (int64_t i = 0; i < count; i++) {
        record_t r;
        int64_t ts, offset;
        if (next_record(&p, stop, &r, &o->error, 0))
            return -1;
        const int32_t od = r.offset_delta, klen = r.key_len, vlen = r.value_len, hcount = r.header_count;
        const int64_t tsd = r.timestamp_delta;
        const uint8_t *key = r.key, *value = r.value, *hpos = r.headers;
        if (__builtin_add_overflow(base, (int64_t)od, &offset) || offset <= *prev) {
            o->error = "record offsets do not increase";
            return -1;
        }
        *prev = offset;
        if (log_append)
            ts = ts_base; /* LogAppendTime: the batch's max timestamp, deltas ignored */
        else if (__builtin_add_overflow(ts_base, tsd, &ts)) {
            o->error = "timestamp overflows";
            return -1;
        }
        const int wanted = offset >= from && offset < until;
        const Py_ssize_t n = o->n;
        if (hcount > 0) {
            if (o->n_headers >= o->headers_cap)
                goto too_small;
            o->headers[2 * o->n_headers] = wanted ? (int64_t)n : -1;
            o->headers[2 * o->n_headers + 1] = hpos - data;
            o->n_headers++;
        }
        if (!wanted)
            continue;
        /* never write past the buffers */
        if (n >= o->n_cap || (klen > 0 && klen > o->key_cap - kpos) || (vlen > 0 && vlen > o->value_cap - vpos))
            goto too_small;
        o->offsets[n] = offset;
        o->timestamps[n] = (int64_t)((uint64_t)ts * 1000u); /* wraps like Arrow's unchecked multiply */
        o->types[n] = log_append;
        if (klen >= 0) {
            memcpy(o->key_data + kpos, key, (size_t)klen);
            kpos += klen;
            o->key_valid[n >> 3] |= (uint8_t)(1u << (n & 7));
        } else
            o->key_nulls++;
        if (vlen >= 0) {
            memcpy(o->value_data + vpos, value, (size_t)vlen);
            vpos += vlen;
            o->value_valid[n >> 3] |= (uint8_t)(1u << (n & 7));
        } else
            o->value_nulls++;
        o->key_offsets[n + 1] = (int32_t)kpos;
        o->value_offsets[n + 1] = (int32_t)vpos;
        o->n = n + 1;
    }
    o->key_bytes = kpos;
    o->value_bytes = vpos;
    if (p != stop) {
        o->error = "records do not add up to their batch";
        return -1;
    }
    return 0;
too_small:
    o->error = "output buffers too small";
    return -1;
}

/* Arguments of decode(): the record sections, their spans, the offset range. */
typedef struct {
    Py_buffer data, spans;
    long long from, until;
    Py_ssize_t n_spans;
} input_t;

static int check_input(input_t *in)
{
    const int64_t *sp = (const int64_t *)in->spans.buf;
    if (in->spans.len % (Py_ssize_t)(sizeof(int64_t) * SPAN_FIELDS) || in->data.len > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "bad spans, or data over 2 GiB");
        return -1;
    }
    in->n_spans = in->spans.len / (Py_ssize_t)(sizeof(int64_t) * SPAN_FIELDS);
    for (Py_ssize_t j = 0; j < in->n_spans; j++) {
        const int64_t *s = sp + SPAN_FIELDS * j;
        /* every record takes at least 7 bytes (length varint + 6): a larger count cannot be right */
        if (s[0] < 0 || s[1] < s[0] || s[1] > in->data.len || s[2] < 0 || s[2] > (s[1] - s[0]) / 7) {
            PyErr_SetString(PyExc_ValueError, "record count does not fit its batch");
            return -1;
        }
    }
    return 0;
}

/* `check`, when not None, is called with each batch's number before its records are read (the CRC-32C
   check: done batch by batch, the batch is still in the CPU caches when its records are copied). */
static int walk(input_t *in, out_t *o, PyObject *check)
{
    int64_t prev = INT64_MIN;
    for (Py_ssize_t j = 0; j < in->n_spans; j++) {
        if (check != Py_None) {
            PyObject *r = PyObject_CallFunction(check, "n", j);
            if (!r)
                return -1;
            Py_DECREF(r);
        }
        int failed;
        Py_BEGIN_ALLOW_THREADS;
        failed = walk_batch((const uint8_t *)in->data.buf, (const int64_t *)in->spans.buf + SPAN_FIELDS * j, in->from,
                            in->until, &prev, o);
        Py_END_ALLOW_THREADS;
        if (failed) {
            PyErr_SetString(PyExc_ValueError, o->error);
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(decode_doc,
             "decode(data, spans, from_offset, until_offset, offsets, timestamps_us, timestamp_types, key_offsets,\n"
             "       key_data, key_validity, value_offsets, value_data, value_validity, headers, check=None)\n"
             "    -> (records, key_bytes, value_bytes, key_nulls, value_nulls, records_with_headers)\n\n"
             "Walks every record of the data batches `spans` (int64 x 6 each: start, stop, record count, base\n"
             "offset, timestamp base, LogAppendTime flag) and writes those with from_offset <= offset < until_offset\n"
             "into writable buffers: int64 offsets, int64 timestamps in microseconds, int32 timestamp types, and for\n"
             "keys and values int32 Arrow offsets (records + 1), data and a validity bitmap; `headers` gets int64\n"
             "pairs (output index or -1, position of the header count) of every record with headers. The buffers\n"
             "are at least as large as the batches could need (their sizes bound what is written); the result\n"
             "says how much of them is used. `check(j)`, if given, is called before the records of span j are\n"
             "read (what it raises is passed on). Raises ValueError on anything it does not fully understand.");

static PyObject *decode(PyObject *Py_UNUSED(self), PyObject *args)
{
    input_t in = {0};
    out_t o = {0};
    PyObject *objs[10];
    PyObject *check = Py_None;
    Py_buffer views[10];
    int got = 0;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*LLOOOOOOOOOO|O", &in.data, &in.spans, &in.from, &in.until, &objs[0], &objs[1],
                          &objs[2], &objs[3], &objs[4], &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &check))
        return NULL;
    if (check_input(&in))
        goto done;
    for (; got < 10; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_WRITABLE) < 0)
            goto done;
    o.offsets = views[0].buf;
    o.timestamps = views[1].buf;
    o.types = views[2].buf;
    o.key_offsets = views[3].buf;
    o.key_data = views[4].buf;
    o.key_valid = views[5].buf;
    o.value_offsets = views[6].buf;
    o.value_data = views[7].buf;
    o.value_valid = views[8].buf;
    o.headers = views[9].buf;
    /* capacities, in records, from the smallest per-record buffer */
    Py_ssize_t cap = views[0].len / 8;
    cap = Py_MIN(cap, views[1].len / 8);
    cap = Py_MIN(cap, views[2].len / 4);
    cap = Py_MIN(cap, views[3].len / 4 - 1);
    cap = Py_MIN(cap, views[6].len / 4 - 1);
    cap = Py_MIN(cap, views[5].len * 8);
    cap = Py_MIN(cap, views[8].len * 8);
    if (cap < 0) {
        PyErr_SetString(PyExc_ValueError, "output buffers too small");
        goto done;
    }
    o.n_cap = cap;
    o.key_cap = views[4].len;
    o.value_cap = views[7].len;
    o.headers_cap = views[9].len / 16;
    memset(o.key_valid, 0, (size_t)views[5].len);
    memset(o.value_valid, 0, (size_t)views[8].len);
    o.key_offsets[0] = o.value_offsets[0] = 0;
    if (walk(&in, &o, check) == 0)
        result = Py_BuildValue("(nLLnnn)", o.n, (long long)o.key_bytes, (long long)o.value_bytes, o.key_nulls,
                               o.value_nulls, o.n_headers);
done:
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&views[i]);
    PyBuffer_Release(&in.data);
    PyBuffer_Release(&in.spans);
    return result;
}

PyDoc_STRVAR(check_records_doc,
             "check_records(data, start, stop, count) -> int\n\n"
             "Checks that data[start:stop] (the record section of one batch, decompressed) is exactly `count` v2\n"
             "records whose offset deltas are 0, 1, ..., count - 1, each adding up to its length prefix, with\n"
             "UTF-8 header keys, and returns how many of them have no key (a compacted topic refuses those).\n"
             "Raises ValueError naming the first fault (the broker's produce path: what a consumer could not\n"
             "decode never reaches the log).");

static PyObject *check_records(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer data;
    Py_ssize_t start, stop;
    long long count;
    const char *error = NULL;
    long long keyless = 0;
    if (!PyArg_ParseTuple(args, "y*nnL", &data, &start, &stop, &count))
        return NULL;
    if (start < 0 || stop < start || stop > data.len || count < 0) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_ValueError, "bad record section bounds");
        return NULL;
    }
    const uint8_t *p = (const uint8_t *)data.buf + start, *end = (const uint8_t *)data.buf + stop;
    Py_BEGIN_ALLOW_THREADS;
    for (long long i = 0; i < count && !error; i++) {
        record_t r;
        if (next_record(&p, end, &r, &error, 1))
            break;
        if (r.offset_delta != i)
            error = "record offset deltas are not 0, 1, 2, ...";
        keyless += r.key_len < 0;
    }
    if (!error && p != end)
        error = "records do not add up to their batch";
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&data);
    if (error) {
        PyErr_SetString(PyExc_ValueError, error);
        return NULL;
    }
    return PyLong_FromLongLong(keyless);
}

static PyMethodDef methods[] = {
    {"decode", decode, METH_VARARGS, decode_doc},
    {"check_records", check_records, METH_VARARGS, check_records_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_columnar_ext", "Record loop of kafka_wire.columnar in C (optional).", -1, methods,
};

/* Bumped when a function's contract changes (2: check_records returns the keyless count), so Python
   can refuse a stale build of an editable checkout instead of misreading its answers. */
#define INTERFACE_VERSION 2

PyMODINIT_FUNC PyInit__columnar_ext(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "INTERFACE_VERSION", INTERFACE_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
