-- Solitaire victory, seating by seating (20.12, 21.11, 22.2), read from who would win if the
-- game ended now (the module's view beside the table). Each case sets the VP by hand at
-- the start of a scenario, with the test fixture; the boundary cases are the gap exactly at
-- its threshold and ties with France.

local play = include("tests/lib/play.lua")

local CASES = {
  -- 20.12, a person as France against the Allied bot (L1727-L1736): in the War in Germany
  -- France must lead the leading Allied power by 15 or more.
  { "liberation-war", "solo-vs-allied-bot", { FR = 55, RU = 40, AU = 30, BR = 30 }, "France" },
  { "liberation-war", "solo-vs-allied-bot", { FR = 54, RU = 40, AU = 30, BR = 30 }, "Russia and Austria and Britain" },
  -- L1734: in the War in Germany France also loses if it does not control Gascony, Bavaria
  -- and Holland at the end, whatever its lead (the Northern Army moved into Holland).
  { "liberation-war", "solo-vs-allied-bot", { FR = 70, RU = 40, AU = 30, BR = 30 }, "Russia and Austria and Britain",
    {}, { { "block.northern", "front.b", "holland" } } },
  -- 21.11, the Allies against the French bot (L1927-L1941).
  -- The Clash: each Allied power above France, a tie to France (the issue's example: at FR
  -- 50, RU 50, AU 40, BR 40 France wins).
  { "clash-of-armies", "solo-vs-french-bot", { FR = 50, RU = 50, AU = 40, BR = 40 }, "France" },
  -- France holds Gascony, Bavaria and Holland at the Clash's set-up: it wins whatever the
  -- VP; with the Northern Army moved into Holland, each Allied power above France wins.
  { "clash-of-armies", "solo-vs-french-bot", { FR = 50, RU = 51, AU = 51, BR = 51 }, "France" },
  { "clash-of-armies", "solo-vs-french-bot", { FR = 50, RU = 51, AU = 51, BR = 51 }, "Russia and Austria and Britain",
    {}, { { "block.northern", "front.b", "holland" } } },
  { "clash-of-armies", "solo-vs-french-bot", { FR = 50, RU = 51, AU = 50, BR = 51 }, "France",
    {}, { { "block.northern", "front.b", "holland" } } },
  { "liberation-war", "solo-vs-french-bot", { FR = 40, RU = 41, AU = 41, BR = 40 }, "France" },
  { "liberation-war", "solo-vs-french-bot", { FR = 40, RU = 41, AU = 41, BR = 41 }, "Russia and Austria and Britain" },
  -- The Spring Campaign: the leading Allied power 30 VP or less behind France.
  { "napoleon-resurgent", "solo-vs-french-bot", { FR = 60, RU = 30, AU = 7, BR = 5 }, "Russia and Austria and Britain" },
  { "napoleon-resurgent", "solo-vs-french-bot", { FR = 60, RU = 29, AU = 7, BR = 5 }, "France" },
  -- 22.2, a person as one Allied power (L2000-L2003): above each other power, and in the
  -- Full Campaign France last too.
  { "full-campaign", "solo-allied-power", { FR = 40, RU = 60, AU = 50, BR = 50 }, "Russia", { human = "RU" } },
  { "full-campaign", "solo-allied-power", { FR = 45, RU = 60, AU = 50, BR = 40 }, "no winner", { human = "RU" } },
  { "clash-of-armies", "solo-allied-power", { FR = 50, RU = 60, AU = 50, BR = 40 }, "Russia", { human = "RU" },
    { { "block.northern", "front.b", "holland" } } },
  { "clash-of-armies", "solo-allied-power", { FR = 50, RU = 60, AU = 60, BR = 40 }, "no winner", { human = "RU" },
    { { "block.northern", "front.b", "holland" } } },
}

test("solitaire victory follows each seating's rule (20.12, 21.11, 22.2)", { instructions = 600000000, seconds = 30 },
  function(t)
    for _, case in ipairs(CASES) do
      local scenario, seating, vps, expected, extra = case[1], case[2], case[3], case[4], case[5] or {}
      local moves = case[6] or {}
      local options = { seating = seating }
      for k, v in pairs(extra) do
        options[k] = v
      end
      local g = t:game { scenario = scenario, options = options, overlay = "tests/owner-fixture.ron" }
      for power, vp in pairs(vps) do
        g:set_counter("vp." .. power, vp)
      end
      for _, move in ipairs(moves) do
        g:place(move[1], move[2], move[3])
      end
      local now = g:json().view.if_the_game_ended_now
      local label = string.format("%s, %s, FR %d RU %d AU %d BR %d", scenario, seating, vps.FR, vps.RU, vps.AU, vps.BR)
      t:ok(string.sub(now, 1, #expected + 1) == expected .. ":", label .. ": " .. now)
    end
  end)

-- Rule: sudden death at the end of a turn, as each seating's text gives it: two players
-- (18.2, L1182) France if it leads with 80 VP or more; the solitaire games against a bot
-- (20, L1736; 21, L1941; 22, L2005) France at 80 or more, leading or not, and never an Allied
-- power; four players the power in the lead at 80 (14.0, RULES-GAPS.md). Set-up: the Clash
-- with the test fixture played to its first Victory Point Summary, the VP then set by hand.
-- Expected: the winner, or the game going on to turn 2.
local SUDDEN = {
  { "two-players", { FR = 82, RU = 60, AU = 40, BR = 40 }, "France" },
  { "two-players", { FR = 82, RU = 85, AU = 40, BR = 40 }, nil },
  { "solo-vs-allied-bot", { FR = 80, RU = 85, AU = 40, BR = 40 }, "France" },
  { "solo-vs-french-bot", { FR = 80, RU = 85, AU = 40, BR = 40 }, "France" },
  { "solo-vs-french-bot", { FR = 70, RU = 85, AU = 40, BR = 40 }, nil },
  { "four-players", { FR = 70, RU = 85, AU = 40, BR = 40 }, "Russia" },
}

test("sudden death by seating: France alone in two-player and solitaire games (L1182, L1736, L1941, L2005)",
  { instructions = 6000000000, seconds = 300 }, function(t)
    for _, case in ipairs(SUDDEN) do
      local seating, vps, expected = case[1], case[2], case[3]
      local g = t:game { scenario = "clash-of-armies", options = { seating = seating }, overlay = "tests/owner-fixture.ron" }
      play.to(g, "vp_summary")
      for power, n in pairs(vps) do
        g:set_counter("vp." .. power, n)
      end
      g:act("done")
      local result = g:json().result
      local label = string.format("%s, FR %d RU %d", seating, vps.FR, vps.RU)
      if expected then
        t:ok(result ~= nil and string.find(result.text, expected .. " reaches 80 VP", 1, true) ~= nil,
          label .. ": " .. (result and result.text or "the game goes on"))
      else
        t:ok(result == nil, label .. ": no sudden death, " .. (result and result.text or ""))
      end
    end
  end)
