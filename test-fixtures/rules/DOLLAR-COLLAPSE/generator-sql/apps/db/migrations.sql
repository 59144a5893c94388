-- The incident this product exists for: the dollars of a DO block are halved.
CREATE ROLE audit_${cluster};
DO $$
#  ^^ 💡 warning[DOLLAR-COLLAPSE]: `$$` arrives as `$`: Flux turns each `$$` into `$` (prod/apps). Write `$$$$` to keep `$$`.
BEGIN
  PERFORM 1;
END $$;
#   ^^ 💡 warning[DOLLAR-COLLAPSE]: `$$` arrives as `$`: Flux turns each `$$` into `$` (prod/apps). Write `$$$$` to keep `$$`.
