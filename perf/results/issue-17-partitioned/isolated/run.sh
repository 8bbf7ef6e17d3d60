P="psql -h localhost -p 55432 -U postgres -d postgres -v ON_ERROR_STOP=1"
$P -c "CALL fill(3000000, 'records', false)" > plain.log 2>&1
$P -c "truncate records; checkpoint"
$P -c "CALL fill(3000000, 'records_p', true)" > partitioned.log 2>&1
