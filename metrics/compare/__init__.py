"""Two or more runs side by side: queries paired, significance tests, and the leaderboard."""
