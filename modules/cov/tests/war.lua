-- Congress of Vienna: rules of the War Phase and the End of Turn that the Playbook's
-- example of play does not reach (tests/turn16.lua plays the narrated ones).

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"

-- Rule: Intr-2 forbids withdrawals (L1246): in Lützen & Bautzen no defender is asked
-- whether it withdraws. Set-up: the scenario with the fixture, every decision its first
-- legal action, to the end. Expected: battles are fought (the US Military Operation makes
-- one in the War of 1812 box at least) and no "Fight" or "Withdraw" choice is ever made.
test("18.4.4 no withdrawals under Intr-2", { instructions = 800000000, seconds = 40 }, function(t)
  local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE }
  play.to(g, function(game)
    return game:prompt() == nil
  end)
  t:ok(#play.lines(g, "Battle on ") >= 1, "a battle is fought")
  t:eq(#play.lines(g, ": Fight"), 0)
  t:eq(#play.lines(g, ": Withdraw"), 0)
  t:ok(g:result() ~= nil, "the one-turn scenario ends")
end)

-- Rule: another power's Military Operation is placed by its winner (L593), with one of its
-- owner's armies or, a Russian one, in the Russian-Persian War box. Set-up: the Clash of
-- Armies to its Government Phase; the Russian Military Operation is put on France's track
-- by hand before it. Expected: in step 1 France places it, and may send it to the
-- Russian-Persian War box; Russia pays nothing for it.
test("16.4 a Military Operation won by an enemy is placed by its winner", { instructions = 800000000, seconds = 40 }, function(t)
  local g = t:game { scenario = "clash-of-armies", overlay = FIXTURE }
  play.to_phase(g, "Government Phase")
  g:place("issue.mil_op_ru", "diplomacy", "FR-3")
  play.to(g, "place_ops")
  local seen = false
  for _ = 1, 10 do
    local p = g:prompt()
    if p.state ~= "place_ops" then
      break
    end
    if string.find(p.text, "Russian Military Operation (won from Russia)", 1, true) then
      seen = true
      t:eq(p.seat, "FR")
      t:ok(util.contains(g:legal(), "place russian_persian_war"), "the Russian-Persian War box is offered")
      t:ok(util.contains(g:legal(), "place block.silesia"), "a Russian army is offered")
      t:ok(not util.contains(g:legal(), "place block.grande_armee"), "not a French army")
      g:act("place", "russian_persian_war")
      t:eq({ g:space_of("issue.mil_op_ru") }, { "russian_persian_war", "box" })
    else
      g:act(p.actions[1].name, p.actions[1].arg)
    end
  end
  t:ok(seen, "France is asked to place the Russian Military Operation")
  t:eq(#play.lines(g, "Russia funds Russian Military Operation"), 0, "Russia does not pay for it")
end)

-- Rule: 16.5 and 17.3: the Clash of Armies ends after turn 8 with its final VP and names
-- the winner. Set-up: the scenario with the fixture, first legal actions, to the end.
-- Expected: the game ends in turn 8 with a result whose scores are the VP counters.
test("17.3 the Clash of Armies ends after turn 8", { instructions = 2000000000, seconds = 120 }, function(t)
  local g = t:game { scenario = "clash-of-armies", overlay = FIXTURE }
  play.to(g, function(game)
    return game:prompt() == nil
  end)
  t:eq(g:turn(), 8)
  local result = g:result()
  t:eq(result.scores, { FR = g:counter("vp.FR"), RU = g:counter("vp.RU"), AU = g:counter("vp.AU"), BR = g:counter("vp.BR") })
  t:eq(#play.lines(g, "The game ends: turn 8 is the scenario's last."), 1)
end)

-- Rule (19.3, the first note, L1440): in solitaire play Kutuzov is set aside and, while he
-- lives, joins Russia at the start of every War Phase. Set-up: the War in Germany, where
-- Russia starts with Kutuzov, against the French bot, with the test fixture, played with
-- the first legal action to the War Phase's first placement. Expected: Kutuzov was set
-- aside at the set-up, is among the Coalition's cards in the War Phase (the Coalition plays
-- one hand, L1100), and is set aside again after it.
test("19.3 Kutuzov joins Russia at the War Phase in solitaire play", { instructions = 900000000, seconds = 40 }, function(t)
  local g = t:game { scenario = "liberation-war", options = { seating = "solo-vs-french-bot" },
    overlay = "tests/owner-fixture.ron" }
  t:eq(g:zone("aside"), { "kutuzov" }, "set aside at the set-up")
  play.to_phase(g, "War Phase")
  t:ok(util.contains(g:zone("hand.allies"), "kutuzov"), "among the Coalition's cards for the War Phase")
  t:eq(#play.lines(g, "Kutuzov joins Russia for the War Phase (19.3)."), 1)
  play.to(g, "vp_summary")
  t:ok(util.contains(g:zone("aside"), "kutuzov") or util.contains(g:zone("removed"), "kutuzov"),
    "set aside again after the War Phase (or dead)")
end)

-- Rule (L934, L563): in the Campaign for France 1814 Austria has the Generalissimo from the
-- start. Set-up: the scenario with the test fixture, the Generalissimo issue taken out of
-- play by hand (so that no power wins it this turn), played with the first legal action
-- through its first turn. Expected: Austria holds it at the set-up, puts the marker on an
-- army as its headquarters at the War Phase, and scores the Austrian Generalissimo's VP at
-- the end of the turn.
test("the Campaign for France starts with the Austrian Generalissimo", { instructions = 900000000, seconds = 40 },
  function(t)
    local g = t:game { scenario = "desperate-times", overlay = "tests/owner-fixture.ron" }
    t:eq(#play.lines(g, "Austria has the Generalissimo from the start."), 1)
    g:remove_piece("issue.generalissimo")
    play.to(g, "vp_summary")
    t:eq(#play.lines(g, "Austria puts its Generalissimo marker on"), 1, "its headquarters at the War Phase")
    t:ok(#play.lines(g, "the Austrian Generalissimo") >= 1, "its end-of-turn VP")
  end)
