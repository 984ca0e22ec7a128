"""Figures and tables built from breakdowns: plotly charts, palettes checked for colour vision, dataframes, the
leaderboard."""
