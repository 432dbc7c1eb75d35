-- Congress of Vienna module tests: what the set-up rules build beyond the scenario data
-- (decks, issues, pools, seatings) and the by-hand turn table. The Playbook's printed
-- set-up numbers are checked by Chancery's own test suite (tests/tests/cov_setup.rs).

local util = include("@lib/util.lua")

-- Rule: the draw deck is every Character and Event card the scenario did not hand out or
-- remove (66 cards in the deck; Playbook 17.2.3). Set-up: Spring 1813. Expected: 65 cards,
-- none of them a Leader, Kutuzov removed.
test("the draw deck holds the other 65 cards", function(t)
  local g = t:game { scenario = "napoleon-resurgent" }
  local deck = g:zone("deck")
  t:eq(#deck, 65)
  t:eq(util.count(deck, function(c) return c == "kutuzov" or c == "napoleon" end), 0)
  t:eq(g:zone("removed"), { "kutuzov" })
end)

-- Rule: the draw deck is shuffled from the game's seed. Set-up: two seeds. Expected: the
-- same seed gives the same order, another seed another order.
test("the deck is shuffled from the seed", function(t)
  local a = t:game { scenario = "full-campaign", seed = 3 }
  local b = t:game { scenario = "full-campaign", seed = 3 }
  local c = t:game { scenario = "full-campaign", seed = 4 }
  t:eq(a:zone("deck"), b:zone("deck"))
  t:ok(table.concat(a:zone("deck")) ~= table.concat(c:zone("deck")), "seeds 3 and 4 dealt the same deck")
end)

-- Rule: the Initial Situation deck holds the scenario's turns in order, each turn's cards
-- A, B and C (17.1). Set-up: Clash of Armies, turns 5-8. Expected: 12 cards from A-5 to C-8.
test("the Initial Situation deck is in turn order", function(t)
  local g = t:game { scenario = "clash-of-armies" }
  t:eq(g:zone("situation.deck"), {
    "a_5", "b_5", "c_5", "a_6", "b_6", "c_6", "a_7", "b_7", "c_7", "a_8", "b_8", "c_8",
  })
  -- 30 cards in decks A-C plus Intr-2, less the 12 in play.
  t:eq(#g:zone("situation.aside"), 19, "the other situation cards are set aside")
end)

-- Rule: Handicap cards wait in their own deck (optional rule). Expected: H-1, H-3 and H-5.
test("the handicap cards wait in their own deck", function(t)
  local g = t:game { scenario = "full-campaign" }
  local deck = g:zone("handicap.deck")
  table.sort(deck)
  t:eq(deck, { "h_1", "h_3", "h_5" })
end)

-- Rule: issues the scenario removes stay off the Diplomacy Display (17.3.3, 17.5.3).
-- Set-up: Desperate Times. Expected: 27 issues on the display, none of the three removed.
test("removed issues stay off the display", function(t)
  local g = t:game { scenario = "desperate-times" }
  local display = g:json().tracks.diplomacy
  local on_display = 0
  for piece, space in pairs(display) do
    if space == "display" then
      on_display = on_display + 1
    end
  end
  t:eq(on_display, 27)
  t:eq(display["issue.austria_at_war"], nil)
  t:eq(display["issue.generalissimo"], "display")
end)

-- Rule: France owns four Military Support markers; the other powers' and the counter mix
-- are not public, so their boxes stay empty until the owner enters them.
test("force pools wait for the counter mix", function(t)
  local g = t:game { scenario = "full-campaign" }
  t:eq(g:units("supports.FR", "FR_support"), 4)
  t:eq(g:units("pool.FR", "FR"), 0)
  t:eq(g:vars().pools_not_entered[1], "FR")
end)

-- Rule: seatings (18.2-18.4, 20-23). Set-up: a solitaire seating for one Allied power.
-- Expected: it needs the human power, and it is recorded.
test("seatings are checked and recorded", function(t)
  t:fails(function()
    t:game { scenario = "full-campaign", options = { seating = "solo-allied-power" } }
  end, "seating solo-allied-power needs --option human=RU, AU or BR")
  local g = t:game { scenario = "full-campaign", options = { seating = "solo-allied-power", human = "AU" } }
  t:eq(g:vars().humans, { "AU" })
  t:fails(function()
    t:game { scenario = "clash-of-armies", options = { seating = "solo" } }
  end, "seating 'solo' is for Lützen & Bautzen")
  t:fails(function()
    t:game { scenario = "full-campaign", options = { situation = "D" } }
  end, "unknown Initial Situation mode 'D'")
end)

-- Rule: the turn goes Initial, Diplomacy, Government, War, End of Turn, then the next turn
-- (16). Set-up: Lützen & Bautzen, a one-turn scenario. Expected: after the End of Turn
-- only scoring is left; Russia, with the most VP, wins.
test("the turn steps through its phases to the end of the scenario", function(t)
  local g = t:game { scenario = "lutzen-bautzen" }
  for _, phase in ipairs({ "diplomacy", "government", "war", "end" }) do
    g:act("next_phase")
    t:eq(g:json().phase, phase)
  end
  t:eq(g:legal(), { "end_game" })
  g:act("end_game")
  local result = g:result()
  t:eq(result.winners, { "RU" })
  t:eq(result.scores, { FR = 10, RU = 18, BR = 10 })
end)

-- Rule: a new turn moves the turn marker. Set-up: Clash of Armies, turn 5. Expected: turn 6.
test("a new turn moves the turn marker", function(t)
  local g = t:game { scenario = "clash-of-armies" }
  for _ = 1, 5 do
    g:act("next_phase")
  end
  t:eq(g:turn(), 6)
  local place, space = g:space_of("marker.turn")
  t:eq({ place, space }, { "turn", "6" })
end)
