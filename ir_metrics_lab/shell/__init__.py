"""The frame every page shares: navigation, layout, presenter mode, the first paint, the CSS and the browser scripts."""
