"""What the diversity (intent-aware) families share, as ndeval 4.5 computes them: one topic's subtopic judgments
(aspects), ndeval's greedy ideal ranking and its exact arithmetic (novelty walks, curves, normalisations)."""
