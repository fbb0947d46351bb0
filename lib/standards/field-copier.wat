;; A row's stored fields (the bytes PostgreSQL prints for jsonb, `{"KEY": "value", "KEY2": "value2"}`) copied into a
;; record's JSON in another key order, in one call per row: lib/standards/field-copier.ts says why and how it is used.
;; Compiled by scripts/build-wasm.mjs into lib/standards/field-copier.wasm.ts (tests/field-copier.test.ts checks that
;; the two agree).
;;
;; render(src, len, keys, nkeys, spans, ops, nops, out) -> the end of what was written at `out`, or 0
;;
;;   src, len     the row's text, UTF-8
;;   keys, nkeys  the key sequence the row must have, in its order: per key its length (i32) then its bytes as printed
;;   spans        room for two i32 per key: where each value's JSON text (quotes included) starts and ends in `src`
;;   ops, nops    what to write: per op an i32 n, then for n >= 0 n bytes written as they are; n < 0 writes the value of
;;                key -n-1 of the sequence
;;   out          where to write
;;
;; 0 when the text is not exactly that key sequence with every value a string, in PostgreSQL's form: the caller then
;; reads the row another way. Values are scanned sixteen bytes at a time, so the sixteen bytes after the text must be
;; memory (their content is never taken for the row's). A value's escapes are kept as printed (JSON's own), so a backslash only says that the
;; character after it does not end the value.
(module
  (memory (export "memory") 1)
  (func (export "render")
    (param $src i32) (param $len i32) (param $keys i32) (param $nkeys i32) (param $spans i32)
    (param $ops i32) (param $nops i32) (param $out i32)
    (result i32)
    (local $p i32) (local $end i32) (local $k i32) (local $klen i32) (local $i i32)
    (local $start i32) (local $n i32) (local $s i32) (local $e i32) (local $m i32)
    (if (i32.lt_u (local.get $len) (i32.const 2)) (then (return (i32.const 0))))
    (local.set $end (i32.add (local.get $src) (local.get $len)))
    ;; the last byte is the closing brace: a value's scan stops before it
    (if (i32.ne (i32.load8_u (local.get $src)) (i32.const 123)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (i32.sub (local.get $end) (i32.const 1))) (i32.const 125)) (then (return (i32.const 0))))
    (local.set $end (i32.sub (local.get $end) (i32.const 1)))
    (local.set $p (i32.add (local.get $src) (i32.const 1)))
    (block $bad
      ;; no keys: the text is `{}`
      (br_if $bad (i32.and (i32.eqz (local.get $nkeys)) (i32.ne (local.get $p) (local.get $end))))
      (if (local.get $nkeys) (then (loop $key
        ;; "KEY": "
        (local.set $klen (i32.load (local.get $keys)))
        (local.set $keys (i32.add (local.get $keys) (i32.const 4)))
        (br_if $bad (i32.gt_u (i32.add (i32.add (local.get $p) (local.get $klen)) (i32.const 5)) (local.get $end)))
        (br_if $bad (i32.ne (i32.load8_u (local.get $p)) (i32.const 34)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $i (i32.const 0))
        ;; eight bytes at a time, then one
        (block $compared
          (loop $eight
            (br_if $compared (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $klen)))
            (br_if $bad
              (i64.ne
                (i64.load (i32.add (local.get $p) (local.get $i)))
                (i64.load (i32.add (local.get $keys) (local.get $i)))))
            (local.set $i (i32.add (local.get $i) (i32.const 8)))
            (br $eight)))
        (block $done
          (loop $one
            (br_if $done (i32.ge_u (local.get $i) (local.get $klen)))
            (br_if $bad
              (i32.ne
                (i32.load8_u (i32.add (local.get $p) (local.get $i)))
                (i32.load8_u (i32.add (local.get $keys) (local.get $i)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $one)))
        (local.set $p (i32.add (local.get $p) (local.get $klen)))
        (local.set $keys (i32.add (local.get $keys) (local.get $klen)))
        ;; the four bytes `": "` as one little-endian word
        (br_if $bad (i32.ne (i32.load (local.get $p)) (i32.const 0x22203a22)))
        (local.set $start (i32.add (local.get $p) (i32.const 3)))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        ;; the value, to its closing quote: sixteen bytes at a time, the first quote or backslash among them found at once
        (block $closed
          (loop $value
            (br_if $bad (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $m
              (i8x16.bitmask
                (v128.or
                  (i8x16.eq (v128.load (local.get $p)) (i8x16.splat (i32.const 34)))
                  (i8x16.eq (v128.load (local.get $p)) (i8x16.splat (i32.const 92))))))
            (if (i32.eqz (local.get $m))
              (then
                (local.set $p (i32.add (local.get $p) (i32.const 16)))
                (br $value)))
            (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $m))))
            ;; past the text's end (the bytes after it are not the row's): not a value of this form
            (br_if $bad (i32.ge_u (local.get $p) (local.get $end)))
            (br_if $closed (i32.eq (i32.load8_u (local.get $p)) (i32.const 34)))
            ;; a backslash: the character after it is escaped
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (br $value)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (i32.store (i32.add (local.get $spans) (i32.shl (local.get $k) (i32.const 3))) (local.get $start))
        (i32.store (i32.add (local.get $spans) (i32.add (i32.shl (local.get $k) (i32.const 3)) (i32.const 4))) (local.get $p))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (if (i32.lt_u (local.get $k) (local.get $nkeys))
          (then
            ;; ", " before the next key
            (br_if $bad (i32.gt_u (i32.add (local.get $p) (i32.const 2)) (local.get $end)))
            (br_if $bad (i32.ne (i32.load16_u (local.get $p)) (i32.const 0x202c)))
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (br $key))))))
      (br_if $bad (i32.ne (local.get $p) (local.get $end)))
      ;; the record's text
      (local.set $i (i32.const 0))
      (block $written
        (loop $op
          (br_if $written (i32.ge_u (local.get $i) (local.get $nops)))
          (local.set $n (i32.load (local.get $ops)))
          (local.set $ops (i32.add (local.get $ops) (i32.const 4)))
          (if (i32.ge_s (local.get $n) (i32.const 0))
            (then
              (memory.copy (local.get $out) (local.get $ops) (local.get $n))
              (local.set $out (i32.add (local.get $out) (local.get $n)))
              (local.set $ops (i32.add (local.get $ops) (local.get $n))))
            (else
              (local.set $k (i32.sub (i32.const -1) (local.get $n)))
              (local.set $s (i32.load (i32.add (local.get $spans) (i32.shl (local.get $k) (i32.const 3)))))
              (local.set $e (i32.load (i32.add (local.get $spans) (i32.add (i32.shl (local.get $k) (i32.const 3)) (i32.const 4)))))
              (memory.copy (local.get $out) (local.get $s) (i32.sub (local.get $e) (local.get $s)))
              (local.set $out (i32.add (local.get $out) (i32.sub (local.get $e) (local.get $s))))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $op)))
      (return (local.get $out)))
    (i32.const 0)))
