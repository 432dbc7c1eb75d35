-- War and Peace, the Grand Campaign: naval combat, pursuit and interception (F.4-F.8).

local play = include("tests/lib/play.lua")

-- At France's Naval Phase (the Pro-French Segment of September 1805), a combat: France's
-- `fr` squadrons attack England's `en`, Nelson where `nelson` says, the first die `die` (or
-- the dice, a list).
local function combat(t, fr, en, nelson, die)
  local g = play.naval_combat(t, "FR")
  play.fill(g, { "EN", fr, en, nelson or "none" }, type(die) == "table" and die or { die })
  return g
end

--- A combat (as `combat`) whose first round logs `line` and ends with the pursuit offered
--- to the victor (F.7.c): checks both, then returns the game.
local function pursuit(t, fr, en, nelson, die, line)
  local g = combat(t, fr, en, nelson, die)
  play.logged(t, g, line)
  t:eq(g:state(), "naval_pursuit")
  return g
end

local log = play.log

-- Rules F.7.b and F.7.f: the odds line from the ratio (2 to 1 from 2, 3 to 2 from 1.5, else
-- 1 to 1); the larger force rolls, -1 when the smaller is English. Set-up: France's 8 to
-- England's 4, a 4: 2 to 1, 4 - 1 = 3, the fixture's "SS": an English squadron sunk, to
-- England's Force Pool; France lets England retreat.
test("F.7.b 8 squadrons to 4 are 2 to 1; the smaller English force -1", function(t)
  local g = pursuit(t, 8, 4, "none", 4,
    "round 1: 8 against 4 squadrons, 2:1; France rolls 4 -1 the smaller force is English = 3: SS (a squadron of England sunk)")
  t:eq(g:units("pool.EN", "squadrons"), 2, "1 in the pool, and the sunk one")
  g:act("stop")
  play.logged(t, g, "England is not pursued and retreats (F.7.d)")
  t:eq(g:state(), "phase")
end)

-- Rule F.7.b: 3 to 2 is "3 to 2" (1.5), 5 to 3 too (1.67), 4 to 3 "1 to 1" (1.33).
test("F.7.b 3 to 2 and 5 to 3 are 3 to 2; 4 to 3 is 1 to 1", function(t)
  for _, case in ipairs({ { 3, 2, "3:2" }, { 5, 3, "3:2" }, { 4, 3, "1:1" } }) do
    local g = combat(t, case[1], case[2], "none", 3)
    play.logged(t, g, string.format("%d against %d squadrons, %s;", case[1], case[2], case[3]))
  end
end)

-- Rules F.7.f and F.8.e: Nelson with the smaller force takes one more off. Set-up: France's
-- 3 against England's 2 with Nelson; a 5: 5 - 1 - 1 = 3 on the 3 to 2 line, the fixture's
-- "SR": England retreats, France may pursue (F.5.b: after each round) and does not; Nelson's
-- injury roll 6 + 5 = 11: he is hurt (F.8.d).
test("F.8.e Nelson with the smaller force -1", function(t)
  local g = pursuit(t, 3, 2, "defender", 5,
    "France rolls 5 -1 the smaller force is English -1 Nelson with the smaller force = 3: SR (England retreats)")
  g:act("stop", nil, { 6, 5 })
  play.logged(t, g, "Nelson's injury roll: 6 + 5 = 11, 11 or more: he is hurt")
  play.logged(t, g, "The naval combat ends after 1 round(s): England is not pursued and retreats (F.7.d).")
end)

-- Rules F.5.b and F.7.c-d (L348-L357, L459-L469): a retreat result does not end the combat
-- by itself: the victor may pursue, and a force caught fights another round. Set-up:
-- France's 3 against England's 2; a 4 (4 - 1 = 3 on the 3 to 2 line, the fixture's "SR":
-- England retreats); France pursues, a 4 ("I"). Expected: the pursuit is offered to France,
-- and once England is caught a second round is fought.
test("F.7.c a retreating force may be pursued, and caught fights on", function(t)
  local g = pursuit(t, 3, 2, "none", 4, "= 3: SR (England retreats)")
  t:eq(g:prompt().seat, "FR")
  g:act("pursue", nil, { 4, 3 })
  play.logged(t, g, "France pursues: 4: intercepted (F.5.b).")
  play.logged(t, g, "Naval combat, round 2: 3 against 2 squadrons")
end)

-- Rule F.7.b's example (L456-L457): "LS", a squadron of the larger force sunk. Set-up:
-- France's 4 against England's 4 (a tie: France, attacking, counts as the larger), a 2
-- (2 - 1 = 1: the fixture's "LS"). Expected: a French squadron goes to France's Force
-- Pool, and England, untouched, is the victor offered the pursuit.
test("F.7.b LS: a squadron of the larger force sunk", function(t)
  local g = pursuit(t, 4, 4, "none", 2, "France rolls 2 -1 the smaller force is English = 1: LS (a squadron of France sunk)")
  t:eq(g:units("pool.FR", "squadrons"), 2, "1 in the pool, and the sunk one")
  t:eq(g:prompt().seat, "EN")
end)

-- Rules F.7.c and F.7.d: the victor may pursue (the Naval Pursuit Table: "I" and another
-- round); a force that loses two rounds running retreats. Set-up: France's 4 against
-- England's 4; a 6 (6 - 1 = 5, "SS"); France pursues, a 4 ("I"); the second round at 4 to 3,
-- a 6 again ("SS"). Expected: England lost two rounds: it retreats, 2 squadrons left.
test("F.7.d two rounds lost running: the force retreats", function(t)
  local g = combat(t, 4, 4, "none", 6)
  g:act("pursue", nil, { 4, 6 })
  play.logged(t, g, "France pursues: 4: intercepted (F.5.b).")
  play.logged(t, g, "round 2: 4 against 3 squadrons, 1:1")
  play.logged(t, g, "England lost two rounds running and retreats (F.7.d)")
  t:eq(g:units("pool.EN", "squadrons"), 3)
end)

-- Rule F.4: the inactive side may intercept a fleet entering a sea zone: the die, +1 at sea,
-- plus the zone's IM, on the Naval Pursuit Table. Set-up: a French fleet enters a zone of
-- IM +1; England, at sea there, rolls 2: 2 + 1 + 1 = 4, "I": it intercepts and may attack.
test("F.4.c interception: +1 at sea and the zone's IM", function(t)
  local g = play.game(t, "two-player")
  play.to_state(g, "phase", "FR")
  g:act("enter_zone")
  g:act("set", 1)
  t:eq(g:state(), "interception")
  t:eq(g:prompt().seat, "EN")
  g:set_dice("physical")
  g:act_as("EN", "intercept")
  play.fill(g, { 1, 0, 0 }, { 2 })
  play.logged(t, g, "England tries to intercept: 2 +2 = 4: intercepted: it may attack before the fleet moves on (F.4.c).")
  t:eq(g:state(), "form", "England's attack: the combat's figures")
  t:eq(g:prompt().seat, "EN")
end)

-- Readings (RULES-GAPS.md): a modified die beyond the table reads as its last row; a round
-- whose result touches neither side (or both) ends the combat. Set-up: in England's Naval
-- Phase its 8 squadrons against France's 3 (2 to 1), a 6: 6 + 1 = 7, read as 6; then
-- France's 4 against England's 4 in France's phase, a 4: 4 - 1 = 3, the fixture's "-".
test("F.7 readings: a 7 reads as 6; a round with no effect ends the combat", function(t)
  local g = play.naval_combat(t, "EN")
  play.fill(g, { "FR", 8, 3, "none" }, { 6 })
  play.logged(t, g, "England rolls 6 +1 the larger force is English = 7: SS SC SR")
  g = combat(t, 4, 4, "none", 4)
  play.logged(t, g, "= 3: - (no effect)")
  play.logged(t, g, "The naval combat ends after 1 round(s): no side won the round.")
end)

-- Rule E.1.a (L128-L130): in the Neutral Player(s) Segment's Naval Phase neutral naval units
-- may not initiate any form of naval combat. Set-up: three players; Russia adopts neutrality
-- in September 1805's Anti-French Segment, so it plays October's Neutral Segment. Expected:
-- Russia's neutral Naval Phase offers no naval combat and no attack on a transport (a fleet
-- may still enter a zone, run a blockade, and reckon its transports); the Anti-French
-- Segment's Naval Phase offers both.
test("E.1.a neutral naval units initiate no naval combat", function(t)
  local g = play.game(t, "three-player")
  t:ok(play.to_state(g, "alliance_phase", "RU"), "Russia announces")
  g:act("announce", "neutral")
  t:ok(play.to_state(g, "phase", "RU"), "Russia's Neutral Segment")
  local legal = table.concat(g:legal(), " ")
  t:ok(g:json().phase:find("Neutral", 1, true) ~= nil, g:json().phase)
  t:ok(not legal:find("naval_combat", 1, true), legal)
  t:ok(not legal:find("transport_attacked", 1, true), legal)
  t:ok(legal:find("run_blockade", 1, true) ~= nil, legal)
  t:ok(play.to_state(g, "phase", "EN"), "England's segment")
  legal = table.concat(g:legal(), " ")
  t:ok(legal:find("naval_combat", 1, true) ~= nil, legal)
end)

-- Rule F.6.c (L374-L386): running a blockade, "F" lets the runners attack the blockaders
-- at once (or stay in port), "F*" lets the blockaders fight one round. Set-up: France's
-- Naval Phase in September 1805; France's 4 squadrons run England's blockade of 4. A 3
-- ("F", the fixture's table): France attacks, a 2 (2 - 1 = 1, "LS": England, untouched, may
-- pursue and does not); then a 1 ("F*"): England's 4 blockaders attack France's 3, a 3.
-- Expected: the "F" combat is France's attack, offering a pursuit after the round; the "F*"
-- combat is England's attack and ends after its one round, with no pursuit offered.
test("F.6.c a blockade run: F, the runners attack; F*, the blockaders fight one round", function(t)
  local g = play.at(t, "phase", "FR", "France's Naval Phase")
  g:set_dice("physical")
  g:act("run_blockade", nil, { 3 })
  play.logged(t, g, "France runs the blockade: 3: F, they may stay in port or attack the blockaders (F.6.c).")
  play.fill(g, { "EN", 4, 4, "none" }, { 2 })
  play.logged(t, g, "Naval combat, round 1: 4 against 4 squadrons, 1:1; France rolls 2")
  t:eq(g:state(), "naval_pursuit")
  g:act("stop")
  g:act("run_blockade", nil, { 1 })
  play.logged(t, g, "France runs the blockade: 1: F*, the blockaders may fight one round (F.6.c).")
  play.fill(g, { "EN", 3, 4, "none" }, { 3 })
  play.logged(t, g, "Naval combat, round 1: 4 against 3 squadrons, 1:1; England rolls 3")
  play.logged(t, g, "The naval combat ends after 1 round(s): one round only.")
  t:eq(g:state(), "phase")
end)

-- Rules F.8 (L486-L488, L504-L508) and F.8.d (L501-L503): Nelson is English: he sails only
-- with an English force, so a French attack on Russia offers no Nelson and France's attack on
-- England offers him only with the force attacked; at the end of a combat he is in, his
-- injury roll, unharmed under 11. Set-up: France's 3 against Russia's 2 (no Nelson asked);
-- France's 3 against England's 2 with Nelson, dice 5 then 4 + 6. Expected: no Nelson
-- field against Russia; against England no "attacker" choice; the roll 4 + 6 = 10: unharmed.
test("F.8 Nelson sails with the English only, and rolls for injury after the combat", function(t)
  local g = play.naval_combat(t, "FR")
  play.fill(g, { "RU", 3, 2 }, { 3 })
  t:ok(log(g):find("Naval combat, round 1: 3 against 2 squadrons", 1, true), "fought without a Nelson field: " .. log(g))
  t:ok(not log(g):find("Nelson", 1, true), log(g))
  g = play.naval_combat(t, "FR")
  play.fill(g, { "EN", 3, 2 })
  local legal = table.concat(g:legal(), " ")
  t:ok(legal:find("defender", 1, true) ~= nil and not legal:find("attacker", 1, true), legal)
  play.fill(g, { "defender" }, { 5 })
  g:act("stop", nil, { 4, 6 })
  play.logged(t, g, "Nelson's injury roll: 4 + 6 = 10, under 11: he is unharmed (F.8.d).")
end)
