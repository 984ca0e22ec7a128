"""The live class on screen: the teacher's projector and the students' phones (the polls themselves are
core.classroom's)."""
