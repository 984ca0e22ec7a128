"""What a measure is: the Family record each family declares, the registry that collects them, measure names as users,
ir_measures and trec_eval spell them, and trec_eval's output format."""
