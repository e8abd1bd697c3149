-- Operation logs, ledger entries and their usage attribution become tables range-partitioned
-- by time ("startedAt" / "createdAt", Unix seconds), one partition per calendar month (UTC),
-- so that a page bounded by the history window reads only its months and retention drops whole
-- months (lib/history/maintain-history.ts keeps partitions ahead and retires them). Each table is converted
-- in place: the old table is renamed, a partitioned one with the same columns (generated ones
-- included), defaults, indexes and foreign key takes its name, the rows are copied one month at
-- a time, the counts are compared (a difference aborts the migration, which then changes
-- nothing), and the old table is dropped. The primary key gains the partition key (PostgreSQL
-- requires it); ids stay unique: log ids are random or time-ordered with 72 random bits, entry
-- ids come from the same sequence as before.
-- There is no DEFAULT partition: rows older than the first month land in one "before" partition
-- bounded by MINVALUE, and the application creates the months ahead.

CREATE FUNCTION pg_temp.patchbay_month(t bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT extract(epoch FROM date_trunc('month', to_timestamp(t) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::bigint
$$;

CREATE FUNCTION pg_temp.patchbay_next_month(t bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT extract(epoch FROM (date_trunc('month', to_timestamp(t) AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC')::bigint
$$;

CREATE FUNCTION pg_temp.patchbay_partition(tbl text, key text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old text := tbl || '_unpartitioned';
  idx record;
  defs text[] := '{}';
  def text;
  cols text;
  seq text;
  lo bigint;
  hi bigint;
  m bigint;
  first_month bigint;
  before_count bigint;
  after_count bigint;
BEGIN
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', tbl);
  -- Free every name the new table takes: the table, its primary key, foreign key and indexes.
  FOR idx IN SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = tbl LOOP
    IF idx.indexname <> tbl || '_pkey' THEN
      defs := defs || idx.indexdef;
      EXECUTE format('ALTER INDEX %I RENAME TO %I', idx.indexname, left(idx.indexname, 50) || '_unpart');
    END IF;
  END LOOP;
  EXECUTE format('ALTER TABLE %I RENAME TO %I', tbl, old);
  EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I', old, tbl || '_pkey', old || '_pkey');
  EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I', old, tbl || '_teamId_fkey', old || '_teamId_fkey');

  EXECUTE format(
    'CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING STORAGE) PARTITION BY RANGE (%I)',
    tbl, old, key);
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY ("id", %I)', tbl, tbl || '_pkey', key);
  EXECUTE format(
    'ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON UPDATE CASCADE ON DELETE CASCADE',
    tbl, tbl || '_teamId_fkey');
  FOREACH def IN ARRAY defs LOOP
    -- The definition names the old table only after ON: point it at the new one.
    EXECUTE replace(def, format(' ON %s.%I ', current_schema(), tbl), format(' ON %I ', tbl));
  END LOOP;
  -- A serial id keeps its sequence (and its position): it belongs to the new table from now on.
  SELECT pg_get_serial_sequence(format('%I', old), 'id') INTO seq;
  IF seq IS NOT NULL THEN
    EXECUTE format('ALTER SEQUENCE %s OWNED BY %I."id"', seq, tbl);
  END IF;

  -- Months from the oldest row's (or this one) to the next, and everything older before them.
  EXECUTE format('SELECT min(%I), max(%I) FROM %I', key, key, old) INTO lo, hi;
  first_month := pg_temp.patchbay_month(coalesce(least(lo, extract(epoch FROM now())::bigint), extract(epoch FROM now())::bigint));
  hi := pg_temp.patchbay_next_month(greatest(coalesce(hi, 0), extract(epoch FROM now())::bigint));
  EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (MINVALUE) TO (%s)', tbl || '_p_before', tbl, first_month);
  m := first_month;
  WHILE m <= hi LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
      tbl || '_p' || to_char(to_timestamp(m) AT TIME ZONE 'UTC', 'YYYYMMDD'), tbl, m, pg_temp.patchbay_next_month(m));
    m := pg_temp.patchbay_next_month(m);
  END LOOP;

  -- The copy, one month at a time (each batch fills one partition), generated columns left to the new table.
  SELECT string_agg(format('%I', column_name), ', ' ORDER BY ordinal_position) INTO cols
    FROM information_schema.columns
   WHERE table_schema = current_schema() AND table_name = old AND is_generated = 'NEVER';
  IF lo IS NOT NULL THEN
    m := pg_temp.patchbay_month(lo);
    WHILE m <= hi LOOP
      EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I WHERE %I >= %s AND %I < %s',
        tbl, cols, cols, old, key, m, key, pg_temp.patchbay_next_month(m));
      m := pg_temp.patchbay_next_month(m);
    END LOOP;
  END IF;
  EXECUTE format('SELECT count(*) FROM %I', old) INTO before_count;
  EXECUTE format('SELECT count(*) FROM %I', tbl) INTO after_count;
  IF before_count <> after_count THEN
    RAISE EXCEPTION '% to partitions: % rows copied of %; nothing was changed', tbl, after_count, before_count;
  END IF;
  EXECUTE format('DROP TABLE %I', old);
END
$$;

SELECT pg_temp.patchbay_partition('OperationLog', 'startedAt');
SELECT pg_temp.patchbay_partition('CreditLedgerEntry', 'createdAt');
SELECT pg_temp.patchbay_partition('UsageAttribution', 'createdAt');
