-- Napoleonic Wars Campaign: the calendar (sections 1, 4 and 6). Each turn is a season; the
-- year begins with Winter. Turn 0, the set-up, is Summer 1805; turn 1 is Fall 1805. The
-- text gives two last turns: Spring 1814 (sections 1 and 4: "35 turns") and Winter 1814
-- (section 6); the option `calendar.last_turn` picks one (RULES-GAPS.md).

local calendar = {}

calendar.SEASONS = { "Winter", "Spring", "Summer", "Fall" }

--- The season and year of turn `n`.
function calendar.of(n)
  -- Turn 0 is Summer 1805, the third season of its year.
  local seasons = n + 2
  return calendar.SEASONS[seasons % 4 + 1], 1805 + seasons // 4
end

--- Turn `n` in words: "Fall 1805 (turn 1)".
function calendar.words(n)
  local season, year = calendar.of(n)
  return string.format("%s %d (turn %d)", season, year, n)
end

--- The last turn the option reads: 35 (Spring 1814) or 34 (Winter 1814).
function calendar.last_turn(reading)
  return reading == "winter-1814" and 34 or 35
end

return calendar
