-- War and Peace, the Grand Campaign: the numbers the text fixes, one test each.

local play = include("tests/lib/play.lua")
local calendar = include("rules/calendar.lua")

-- Rule C.3: the game runs from September 1805 to August 1815, a month a turn: 120 turns.
test("C.3 September 1805 to August 1815 is 120 months", function(t)
  t:eq(calendar.words(1), "September 1805")
  t:eq(calendar.words(5), "January 1806")
  t:eq(calendar.words(120), "August 1815")
  t:eq(calendar.LAST_TURN, 120)
end)

-- Rule E: a month passes through its segments and phases to the next.
test("E a month's segments and phases, to October 1805", function(t)
  local g = play.game(t, "two-player")
  play.to_turn(g, 2)
  t:eq(g:turn(), 2)
  t:eq({ g:space_of("turn.marker") }, { "turn", "2" })
  local log = table.concat(g:log(), "\n")
  t:ok(log:find("October 1805 begins.", 1, true), log)
end)
