-- Congress of Vienna module tests: what the set-up rules build beyond the scenario data
-- (decks, issues, pools, seatings) and the by-hand turn table. The Playbook's printed
-- set-up numbers are checked by Chancery's own test suite (tests/tests/cov_setup.rs).

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

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
-- A, B and C (17.1); beginning the first turn draws its card (16.1). Set-up: Clash of
-- Armies, turns 5-8, historic cards. Expected: 12 cards from A-5 to C-8; then A-5 in play
-- and B-5 and C-5 set aside.
test("the Initial Situation deck is in turn order", function(t)
  local g = t:game { scenario = "clash-of-armies" }
  t:eq(g:zone("situation.deck"), {
    "a_5", "b_5", "c_5", "a_6", "b_6", "c_6", "a_7", "b_7", "c_7", "a_8", "b_8", "c_8",
  })
  -- 30 cards in decks A-C plus Intr-2, less the 12 in play.
  t:eq(#g:zone("situation.aside"), 19, "the other situation cards are set aside")
  t:eq(g:legal(), { "begin" })
  g:act("begin")
  t:eq(g:zone("situation.current"), { "a_5" })
  t:eq(#g:zone("situation.deck"), 9)
  t:eq(#g:zone("situation.aside"), 21)
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
-- Expected: it needs the human power, and it is recorded; a seating for another scenario,
-- and a value the option does not list, are refused.
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
  end, "option 'situation' takes historic, random, A, B or C, not 'D'")
end)

-- Rule: the turn goes Initial, Diplomacy, Government, War and End of Turn (16), and
-- Lützen & Bautzen's victory (18.4.3): alone or with two players France wins with more VP
-- than both Russia and Britain, the Allies with fewer than both, else a draw. Set-up: the
-- one-turn scenario, with the test fixture, played to its Victory Point Summary; the VP
-- are then set by hand. Expected: at the starting VP (FR 10, RU 18, BR 10) a draw; France
-- at 19 wins; France at 9 loses to both Allies.
test("Lützen & Bautzen ends in a draw at its starting VP (18.4.3)", { instructions = 600000000, seconds = 30 }, function(t)
  for _, case in ipairs({ { 10, {} }, { 19, { "FR" } }, { 9, { "RU", "BR" } } }) do
    local g = t:game { scenario = "lutzen-bautzen", overlay = "tests/owner-fixture.ron" }
    play.to(g, "vp_summary")
    t:eq(g:json().phase, "End of Turn", "the Government and War Phases are played by the rules")
    g:set_counter("vp.FR", case[1])
    g:set_counter("vp.RU", 18)
    g:set_counter("vp.BR", 10)
    g:act("done")
    t:eq(g:prompt(), nil, "the one-turn scenario ends")
    t:eq(g:result().winners, case[2], "France at " .. case[1])
  end
end)

-- Rule: a new turn moves the turn marker, and the rules play its Initial Phase again.
-- Set-up: Clash of Armies, turn 5, with the fixture. Expected: turn 6 begins with A-6, whose
-- content the fixture leaves unentered: the players are asked to carry it out by hand.
test("a new turn moves the turn marker", { instructions = 600000000, seconds = 30 }, function(t)
  local g = t:game { scenario = "clash-of-armies", overlay = "tests/owner-fixture.ron" }
  play.to(g, "checklist")
  t:eq(g:turn(), 6)
  local place, space = g:space_of("marker.turn")
  t:eq({ place, space }, { "turn", "6" })
  t:eq(g:zone("situation.current"), { "a_6" })
  t:eq(g:state(), "checklist")
  t:ok(string.find(g:prompt().text, "A-6: 1813 September: give the cards it names to the hands (not entered yet)", 1, true),
    g:prompt().text)
end)
