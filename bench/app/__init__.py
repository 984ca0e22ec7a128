"""The app's benchmarks: a brand-new visitor's first paint and layout shift, every edit's speed, the playground's
reruns and drags, the "Your data" page on a large run."""
