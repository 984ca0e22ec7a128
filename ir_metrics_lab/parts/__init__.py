"""The pieces pages are drawn from: the ranked list, metric cards, controls, teaching blocks, charts with their text."""
