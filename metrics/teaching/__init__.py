"""What the app teaches with: worked formulas in LaTeX, diagnosed mistakes, swaps, metric@k sweeps, and the blog posts'
worked examples."""
