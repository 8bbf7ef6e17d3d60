CREATE OR REPLACE PROCEDURE fill(target bigint, tbl text, part boolean) LANGUAGE plpgsql AS $$
DECLARE s bigint := 0; t0 timestamptz := clock_timestamp(); t1 timestamptz; sel text;
BEGIN
  sel := $q$ SELECT 1::smallint, g, now(), now() + g * interval '1 ms', (CASE WHEN g % 3 = 0 THEN 1 ELSE 5 END)::smallint,
     gen_random_uuid()::text, CASE WHEN g % 3 <> 0 THEN gen_random_uuid()::text || '@example.org' END,
     'election-' || (g % 5), 'area-' || (g % 1000), CASE WHEN g % 3 = 0 THEN md5(random()::text) || md5(random()::text) END,
     gen_random_uuid()::text, convert_to(repeat(md5(random()::text), 22), 'UTF8'), 1, 0, g, NULL::bytea, NULL::bytea, 1, NULL::text, NULL::text
     FROM generate_series($1, $2) g $q$;
  WHILE s < target LOOP
    IF part THEN
      EXECUTE 'WITH r AS (INSERT INTO ' || tbl || sel || ' RETURNING board_id, id, delivery_id) INSERT INTO deliveries SELECT board_id, delivery_key(delivery_id), id FROM r' USING s, s + 4999;
    ELSE
      EXECUTE 'INSERT INTO ' || tbl || sel USING s, s + 4999;
    END IF;
    COMMIT;
    s := s + 5000;
    IF s % 250000 = 0 THEN
      t1 := clock_timestamp();
      RAISE NOTICE 'at % rate %', s, round(250000 / extract(epoch FROM t1 - t0));
      t0 := t1;
    END IF;
  END LOOP;
END $$;
