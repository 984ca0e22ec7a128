"""What the lessons say, as data and text: their steps, the narratives, the quiz, the conventions and errata, why tools
differ."""
