-- War and Peace, the Grand Campaign: naval war (F). Naval combat is a sub-procedure that
-- returns its result: each round the larger force's player rolls a die, modified for the
-- English morale and Nelson, and reads the owner's Naval Combat Results Table on the odds
-- line (2 to 1 from a ratio of 2, 3 to 2 from 1.5, else 1 to 1); a squadron sunk goes to
-- its state's Force Pool, one captured to its state's Prisoners box (G.3.a); the victor of
-- a round may pursue (the Naval Pursuit Table: "I" and another round follows); a force
-- that is not pursued, or loses two rounds running, retreats. Interception is a reaction
-- window of the inactive side when the active player's fleet enters a sea zone; a
-- blockade is run on the Naval Blockade Table; an unescorted transport attacked rolls on
-- the Naval Transport Table. The fleets move on the map. A combat is declared steps
-- (@lib/steps.lua): a round, the victor's pursuit, the retreat, again until it ends.

local form = include("@lib/form.lua")
local steps = include("@lib/steps.lua")
local states = include("rules/states.lua")

local naval = {}

--- The odds line for forces of `larger` and `smaller` squadrons (F.7.b).
function naval.odds(ctx, larger, smaller)
  local t = ctx.data.tables.naval_odds
  local tenths = smaller > 0 and (larger * 10) // smaller or t["2:1"]
  if tenths >= t["2:1"] then
    return "2:1"
  elseif tenths >= t["3:2"] then
    return "3:2"
  end
  return "1:1"
end

--- The combat die's modifier (F.7.f, F.8.e) for the larger force `l` and the smaller `s`
--- (each {english, nelson}), with its reasons.
function naval.combat_modifier(ctx, l, s)
  local m = ctx.data.tables.naval_modifiers
  local drm, why = 0, {}
  local function add(n, reason)
    drm = drm + n
    why[#why + 1] = string.format("%+d %s", n, reason)
  end
  for _, term in ipairs({
    { "english", "the larger force is English", "the smaller force is English" },
    { "nelson", "Nelson with the larger force", "Nelson with the smaller force" },
  }) do
    local key, larger, smaller = term[1], term[2], term[3]
    if l[key] then
      add(m[key], larger)
    end
    if s[key] then
      add(-m[key], smaller)
    end
  end
  return drm, why
end

--- A table's row for a modified die: below 1 read as 1, above 6 as 6 (RULES-GAPS.md).
function naval.row(roll)
  return math.max(1, math.min(6, roll))
end

--- The fewest transports that carry `points` production or supply points, `infantry` and
--- `cavalry` strength points (F.3.d): one carries 5 points, or 2 infantry, or 1 cavalry, or
--- 2 points with 1 infantry.
function naval.transports_needed(ctx, points, infantry, cavalry)
  local t = ctx.data.tables.transport
  local best
  for mixed = 0, infantry // t.mixed_infantry do
    local p = math.max(0, points - mixed * t.mixed_points)
    local i = infantry - mixed * t.mixed_infantry
    local n = cavalry // t.cavalry + mixed + (i + t.infantry - 1) // t.infantry + (p + t.points - 1) // t.points
    if best == nil or n < best then
      best = n
    end
    if p == 0 then
      break
    end
  end
  return best
end

--- The result letters of a Naval Combat Results Table cell, as {side, effect} pairs ("LS
--- SR" is {{"L","S"}, {"S","R"}}; "-" none).
function naval.parse(result)
  local list = {}
  for token in result:gmatch("%S+") do
    local side, effect = token:match("^([LS])([RSC])$")
    if side then
      list[#list + 1] = { side, effect }
    end
  end
  return list
end

naval.states = {}

-- The figures of a naval combat: the two sides, their squadrons, which is English, where
-- Nelson is.
form.define("naval_combat", "Naval combat", function(ctx, values, data)
  -- A force of another side (E.2.f: combat only against the inactive player's forces).
  local enemies = {}
  local side = ctx.vars.status[data.attacker]
  for _, state in ipairs(states.all()) do
    local status = ctx.vars.status[state]
    if status ~= side and status ~= "unformed" then
      enemies[#enemies + 1] = { state, states.name(ctx, state) }
    end
  end
  local fields = {
    { key = "defender", text = data.blockaders and "the state of the blockading force" or "the state of the force attacked", choices = enemies },
    { key = "attacker_squadrons", text = string.format("%s's squadrons", states.name(ctx, data.attacker)), min = 1, max = 99 },
    { key = "defender_squadrons", text = data.blockaders and "the blockading force's squadrons" or "the other side's squadrons", min = 1, max = 99 },
  }
  -- Nelson is England's (F.8, L486-L488, L504-L508): he sails with an English force only.
  local nelson = { { "none", "Not in this combat" } }
  if data.attacker == "EN" then
    nelson[#nelson + 1] = { "attacker", "With the attacking force" }
  end
  if values.defender == "EN" then
    nelson[#nelson + 1] = { "defender", "With the force attacked" }
  end
  if #nelson > 1 then
    fields[#fields + 1] = { key = "nelson", text = "Nelson", choices = nelson }
  end
  return fields
end)

--- Opens the combat calculator for `attacker`'s force (its player fills in the figures);
--- the caller's on_resume hands the result to `naval.begin`.
function naval.enter(ctx, attacker)
  form.open(ctx, "naval_combat", { seat = states.voice(ctx, attacker), data = { attacker = attacker }, cancel = "No naval combat after all" })
end

--- Once the figures are in, the combat. Returns whether `result` was the combat's form.
--- With `reversed`, the form was filled in by the side attacked (a blockade run's "F*": the
--- blockaders attack the runners, F.6.c).
function naval.begin(ctx, attacker, result, rounds, reversed)
  if not (result and result.form == "naval_combat") then
    return false
  end
  if not result.cancelled then
    local v = result.values
    local runner = { state = attacker, squadrons = v.attacker_squadrons, nelson = v.nelson == "attacker" and attacker == "EN" }
    local other_side = { state = v.defender, squadrons = v.defender_squadrons, nelson = v.nelson == "defender" and v.defender == "EN" }
    ctx:call("naval_combat", {
      sides = {
        attacker = reversed and other_side or runner,
        defender = reversed and runner or other_side,
      },
      round = 0, losses = { attacker = 0, defender = 0 }, lost_rounds = { attacker = 0, defender = 0 },
      rounds = rounds,
    })
  end
  return true
end

--- K.7.a: with the optional rule, the squadrons of a force retreating after an adverse
--- result are damaged, immobile until repaired.
function naval.damage(ctx, force)
  if ctx.vars.options["k7.damage"] ~= "on" or force.squadrons == 0 then
    return
  end
  ctx.vars.damaged[force.state] = (ctx.vars.damaged[force.state] or 0) + force.squadrons
  ctx:log(string.format("%d squadron(s) of %s are damaged, immobile in port until repaired (K.7).", force.squadrons, states.name(ctx, force.state)))
end

local function other(side)
  return side == "attacker" and "defender" or "attacker"
end

local function english(side)
  return side.state == "EN"
end

-- One round (F.7.b): the larger force's player rolls; the result's losses and retreats.
local function round(ctx)
  local l = ctx.locals
  l.round = l.round + 1
  local a, d = l.sides.attacker, l.sides.defender
  -- A retreat is this round's result; a force the victor caught fights on (F.7.c).
  a.retreats, d.retreats = nil, nil
  local larger = a.squadrons >= d.squadrons and "attacker" or "defender"
  local L, S = l.sides[larger], l.sides[other(larger)]
  local before = { L.squadrons, S.squadrons }
  local odds = naval.odds(ctx, L.squadrons, S.squadrons)
  local drm, why = naval.combat_modifier(ctx, { english = english(L), nelson = L.nelson }, { english = english(S), nelson = S.nelson })
  local die = ctx:roll(6, string.format("%s's naval combat die", states.name(ctx, L.state)))
  local row = naval.row(die + drm)
  local result = ctx.data.tables.naval_combat[odds .. "/" .. row]
  local hit = {}
  local words = {}
  for _, pair in ipairs(naval.parse(result)) do
    local side = pair[1] == "L" and larger or other(larger)
    local force = l.sides[side]
    hit[side] = true
    if pair[2] == "R" then
      force.retreats = true
      words[#words + 1] = states.name(ctx, force.state) .. " retreats"
      if not force.damaged then
        force.damaged = true
        naval.damage(ctx, force)
      end
    elseif force.squadrons > 0 then
      force.squadrons = force.squadrons - 1
      l.losses[side] = l.losses[side] + 1
      if pair[2] == "S" then
        ctx:add_units(states.box(force.state, "pool"), "squadrons", 1)
        words[#words + 1] = "a squadron of " .. states.name(ctx, force.state) .. " sunk"
      elseif ctx.vars.options["k6.prizes"] == "on" then
        local captor = l.sides[other(side)].state
        local prizes = ctx.vars.prizes[captor] or {}
        prizes[#prizes + 1] = { kind = "squadrons", turn = ctx:turn() }
        ctx.vars.prizes[captor] = prizes
        words[#words + 1] = string.format("a squadron of %s captured, a prize of %s (K.6)", states.name(ctx, force.state), states.name(ctx, captor))
      else
        ctx:add_units(states.box(force.state, "prisoners"), "squadrons", 1)
        words[#words + 1] = "a squadron of " .. states.name(ctx, force.state) .. " captured"
      end
    end
  end
  ctx:log(string.format("Naval combat, round %d: %d against %d squadrons, %s; %s rolls %d%s = %d: %s (%s).", l.round,
    before[1], before[2], odds, states.name(ctx, L.state), die,
    #why > 0 and (" " .. table.concat(why, " ")) or "", die + drm, result, #words > 0 and table.concat(words, "; ") or "no effect"))
  -- The victor is the side the result left unaffected (F.7.c).
  if hit.attacker and not hit.defender then
    l.victor = "defender"
  elseif hit.defender and not hit.attacker then
    l.victor = "attacker"
  else
    l.victor = nil
  end
  for _, side in ipairs({ "attacker", "defender" }) do
    if l.victor == other(side) then
      l.lost_rounds[side] = l.lost_rounds[side] + 1
    else
      l.lost_rounds[side] = 0
    end
  end
end

-- The combat is over: who retreats, and the result handed back.
local function finish(ctx, why)
  local l = ctx.locals
  ctx:log(string.format("The naval combat ends after %d round(s): %s.", l.round, why))
  -- F.8.c-d (L498-L503): Nelson is lost with the last of his squadrons; else the injury roll,
  -- unharmed under 11 (two dice: RULES-GAPS.md; what 11 or more does is section R's).
  for _, side in ipairs({ "attacker", "defender" }) do
    local force = l.sides[side]
    if force.nelson and force.squadrons == 0 then
      ctx:log("Nelson is lost with the last of his squadrons: killed if they were sunk, captured if they were captured (F.8.c).")
    elseif force.nelson then
      local a = ctx:roll(6, "Nelson's injury roll")
      local b = ctx:roll(6, "Nelson's injury roll")
      if a + b < 11 then
        ctx:log(string.format("Nelson's injury roll: %d + %d = %d, under 11: he is unharmed (F.8.d).", a, b, a + b))
      else
        ctx:log(string.format("Nelson's injury roll: %d + %d = %d, 11 or more: he is hurt; apply the Leader Casualties of section R at the table (F.8.d).", a, b, a + b))
      end
    end
  end
  ctx:pop({
    rounds = l.round,
    losses = l.losses,
    squadrons = { attacker = l.sides.attacker.squadrons, defender = l.sides.defender.squadrons },
    victor = l.victor and l.sides[l.victor].state or nil,
  })
end

-- After a round, why the combat ends (F.7.c-d); nil: the victor may pursue.
local function ends(ctx)
  local l = ctx.locals
  local a, d = l.sides.attacker, l.sides.defender
  if a.squadrons == 0 or d.squadrons == 0 then
    return "a force has no squadron left"
  elseif (a.retreats or d.retreats) and l.victor == nil then
    return string.format("%s retreats to the nearest friendly port", states.name(ctx, (a.retreats and a or d).state))
  elseif l.victor == nil then
    return "no side won the round"
  elseif l.lost_rounds[other(l.victor)] >= 2 then
    return string.format("%s lost two rounds running and retreats (F.7.d)", states.name(ctx, l.sides[other(l.victor)].state))
  elseif l.rounds and l.round >= l.rounds then
    return "one round only"
  end
  return nil
end

-- The victor's choice to pursue (F.5.b, F.7.c), with the two forces (locals `victor` and
-- `loser`); it pops "caught", "escaped" or "let go".
local pursuit = {}
naval.states.naval_pursuit = pursuit

function pursuit.prompt(ctx)
  local l = ctx.locals
  local victor = l.victor
  return {
    seat = states.voice(ctx, victor.state),
    text = string.format("F.7.c %s won the round (%d against %d squadrons): pursue for another round?", states.name(ctx, victor.state),
      victor.squadrons, l.loser.squadrons),
    actions = {
      { name = "pursue", label = "Roll on the Naval Pursuit Table" },
      { name = "stop", label = "Let the enemy retreat" },
    },
  }
end

function pursuit.pursue(ctx)
  local victor = ctx.locals.victor
  local m = ctx.data.tables.naval_modifiers
  local bonus = victor.nelson and m.nelson or 0
  local die = ctx:roll(6, states.name(ctx, victor.state) .. "'s pursuit die")
  local result = ctx.data.tables.naval_pursuit[tostring(naval.row(die + bonus))]
  ctx:log(string.format("%s pursues: %d%s: %s (F.5.b).", states.name(ctx, victor.state), die, bonus > 0 and " +1 Nelson" or "", result == "I" and "intercepted" or "not caught"))
  ctx:pop(result == "I" and "caught" or "escaped")
end

function pursuit.stop(ctx)
  ctx:pop("let go")
end

-- A naval combat (F.7), called with the two `sides`, its `round`, `losses`, `lost_rounds`
-- and at most `rounds` (nil: no limit); it pops the result `finish` gives.
naval.states.naval_combat = steps.procedure("F.7 Naval combat", {
  {
    name = "F.7.b A round",
    run = function(ctx)
      round(ctx)
      local why = ends(ctx)
      if why then
        finish(ctx, why)
        return steps.stop()
      end
    end,
  },
  {
    name = "F.7.c The victor may pursue",
    calls = "naval_pursuit",
    run = function(ctx)
      local l = ctx.locals
      return steps.call("naval_pursuit", { victor = l.sides[l.victor], loser = l.sides[other(l.victor)] })
    end,
    resume = function(ctx, outcome)
      local l = ctx.locals
      local loser = states.name(ctx, l.sides[other(l.victor)].state)
      if outcome == "escaped" then
        l.retreat = string.format("%s escapes and retreats (F.7.d)", loser)
      elseif outcome == "let go" then
        l.retreat = string.format("%s is not pursued and retreats (F.7.d)", loser)
      end
    end,
  },
  {
    name = "F.7.d A force not caught retreats; one caught fights another round",
    run = function(ctx)
      if ctx.locals.retreat then
        finish(ctx, ctx.locals.retreat)
        return steps.stop()
      end
    end,
  },
  again = true,
})

-- The inactive side's chance to intercept a fleet entering a sea zone (F.4): a reaction
-- window; each squadron or fleet that intercepts may attack it.
form.define("zone", "A fleet enters a sea zone", function()
  return {
    { key = "im", text = "the sea zone's Interception Modifier (IM)", min = -6, max = 6 },
  }
end)

form.define("intercept", "Interception", function()
  return {
    { key = "at_sea", text = "is the intercepting squadron or fleet at sea in the zone (+1; not one that was blockading a port, F.6.g)?", choices = { { 1, "Yes" }, { 0, "No" } } },
    { key = "second_turn", text = "its second turn in the zone, against a fleet there all the last French Movement Phase (+1)?", choices = { { 1, "Yes" }, { 0, "No" } } },
    { key = "nelson", text = "is Nelson with it (+1)?", choices = { { 1, "Yes" }, { 0, "No" } } },
  }
end)

local window = {}
naval.states.interception = window

--- The seats of the side not active in segment `faction`: the other factions' leads.
function naval.inactive(ctx, faction)
  local list = {}
  if faction ~= "pro" then
    list[#list + 1] = "FR"
  end
  if faction ~= "anti" then
    list[#list + 1] = "EN"
  end
  return list
end

function window.prompt(ctx)
  local l = ctx.locals
  local asks = {}
  for _, seat in ipairs(naval.inactive(ctx, l.faction)) do
    asks[#asks + 1] = { seat = seat, actions = { { name = "intercept", label = "Try to intercept (the Naval Pursuit Table)" } } }
  end
  return {
    text = string.format("F.4 A fleet of %s enters a sea zone (IM %+d): the inactive side may intercept it", states.name(ctx, l.mover), l.im),
    asks = asks,
  }
end

function window.intercept(ctx, _, seat)
  ctx.locals.interceptor = seat
  form.open(ctx, "intercept", { seat = seat, cancel = "No interception after all" })
end

function window.on_resume(ctx, result)
  local l = ctx.locals
  if not result or result.cancelled or result.form ~= "intercept" then
    return
  end
  local v = result.values
  local modifier = v.at_sea + v.second_turn + v.nelson + l.im
  local die = ctx:roll(6, states.name(ctx, l.interceptor) .. "'s interception die")
  local outcome = ctx.data.tables.naval_pursuit[tostring(naval.row(die + modifier))]
  ctx:log(string.format("%s tries to intercept: %d %+d = %d: %s (F.4.c).", states.name(ctx, l.interceptor), die, modifier, die + modifier,
    outcome == "I" and "intercepted: it may attack before the fleet moves on" or "no interception"))
  if outcome == "I" then
    naval.enter(ctx, l.interceptor)
  end
end

function window.all_passed(ctx)
  ctx:pop(nil)
end

--- The Naval Phase's calculators, as a phase's actions (the phase's seat uses them). In the
--- Neutral Player(s) Segment neutral naval units may not initiate any form of naval combat
--- (E.1.a, L128-L130): no combat and no attack on a transport is offered there; a neutral
--- fleet may still move, run a blockade, and be intercepted.
function naval.phase_actions(ctx, faction)
  local actions = {}
  if faction ~= "neutral" then
    actions[#actions + 1] = { name = "naval_combat", label = "Resolve a naval combat (F.7)" }
  end
  actions[#actions + 1] = { name = "enter_zone", label = "A fleet enters a sea zone with enemy squadrons: the inactive side may intercept (F.4)" }
  actions[#actions + 1] = { name = "run_blockade", label = "Run a blockade (F.6.c)" }
  if faction ~= "neutral" then
    actions[#actions + 1] = { name = "transport_attacked", label = "An unescorted transport is attacked (F.7.e)" }
  end
  actions[#actions + 1] = { name = "transport_load", label = "How many transports a cargo needs (F.3.d)" }
  if faction == "anti" then
    actions[#actions + 1] = { name = "lend", label = "England lends Production Points to a state (G.1.k)" }
  end
  return actions
end

form.define("cargo", "A cargo", function()
  return {
    { key = "points", text = "production or supply points", min = 0, max = 99 },
    { key = "infantry", text = "infantry strength points", min = 0, max = 99 },
    { key = "cavalry", text = "cavalry strength points", min = 0, max = 99 },
  }
end)

form.define("lend", "Production Points lent", function(ctx)
  local majors = {}
  for _, major in ipairs(states.MAJORS) do
    if major ~= "EN" and major ~= "FR" then
      majors[#majors + 1] = { major, states.name(ctx, major) }
    end
  end
  return {
    { key = "state", text = "the state England lends to", choices = majors },
    { key = "points", text = "the Production Points carried to it", min = 1, max = 99 },
  }
end)

--- A phase's naval actions, for the phase state (`phase` gets these as its handlers).
function naval.handlers(phase)
  function phase.naval_combat(ctx)
    naval.enter(ctx, ctx.locals.seat)
  end

  function phase.enter_zone(ctx)
    form.open(ctx, "zone", { seat = ctx.locals.seat, cancel = "No fleet enters after all" })
  end

  -- A blockade run (F.6.c, L374-L386): "F" lets the runners attack the blockaders at once
  -- (a neutral fleet too: the run's own result, not a combat it starts, RULES-GAPS.md), or
  -- stay in port; "F*" lets the blockaders fight one round against them.
  function phase.run_blockade(ctx)
    local seat = ctx.locals.seat
    local die = ctx:roll(6, states.name(ctx, seat) .. "'s blockade die")
    local result = ctx.data.tables.naval_blockade[tostring(die)]
    local words = {
      E = "the units escape and move on",
      F = "they may stay in port or attack the blockaders",
      ["F*"] = "the blockaders may fight one round",
    }
    ctx:log(string.format("%s runs the blockade: %d: %s, %s (F.6.c).", states.name(ctx, seat), die, result, words[result] or result))
    if result == "F" then
      ctx.locals.blockade = "F"
      form.open(ctx, "naval_combat", { seat = states.voice(ctx, seat), data = { attacker = seat, blockaders = true },
        cancel = "Stay in port" })
    elseif result == "F*" then
      ctx.locals.blockade = "F*"
      form.open(ctx, "naval_combat", { seat = states.voice(ctx, seat), data = { attacker = seat, blockaders = true },
        cancel = "The blockaders do not fight" })
    end
  end

  function phase.transport_attacked(ctx)
    local seat = ctx.locals.seat
    local die = ctx:roll(6, "the unescorted transport's die")
    local result = ctx.data.tables.naval_transport[tostring(die)]
    local words = {
      C = "captured with its cargo",
      S = "sunk",
      E = "it escapes to the nearest friendly port",
    }
    ctx:log(string.format("An unescorted transport is attacked: %d: %s, %s (F.7.e; %s moves it).", die, result, words[result] or result, states.name(ctx, seat)))
    -- With the prizes rule, the transport captured is the attacker's prize (K.6.a).
    if result == "C" and ctx.vars.options["k6.prizes"] == "on" then
      local prizes = ctx.vars.prizes[seat] or {}
      prizes[#prizes + 1] = { kind = "transports", turn = ctx:turn() }
      ctx.vars.prizes[seat] = prizes
      ctx:log(string.format("The transport is a prize of %s (K.6).", states.name(ctx, seat)))
    end
  end

  function phase.transport_load(ctx)
    form.open(ctx, "cargo", { seat = ctx.locals.seat, cancel = "No cargo" })
  end

  function phase.lend(ctx)
    form.open(ctx, "lend", { seat = "EN", cancel = "Nothing lent" })
  end
end

--- A phase's forms come back here: the zone's interception window, a combat, a loan.
function naval.resume(ctx, result)
  -- A combat opened by a blockade run's result (run_blockade) comes back first.
  local blockade = ctx.locals.blockade
  ctx.locals.blockade = nil
  if not result or result.cancelled then
    return false
  end
  if result.form == "zone" then
    ctx:call("interception", { faction = ctx.locals.faction, mover = ctx.locals.seat, im = result.values.im })
    return true
  elseif result.form == "cargo" then
    local v = result.values
    local n = naval.transports_needed(ctx, v.points, v.infantry, v.cavalry)
    ctx:log(string.format("%d production or supply points, %d infantry and %d cavalry strength points need %d transport(s) (F.3.d; leaders ride free).",
      v.points, v.infantry, v.cavalry, n))
    return true
  elseif result.form == "lend" then
    local v = result.values
    ctx.vars.lent[v.state] = (ctx.vars.lent[v.state] or 0) + v.points
    ctx:log(string.format("England lends %s %d Production Point(s): +%d to its Alliance Phase roll (G.1.k).", states.name(ctx, v.state), v.points, v.points))
    return true
  end
  if blockade == "F*" then
    return naval.begin(ctx, ctx.locals.seat, result, 1, true)
  end
  return naval.begin(ctx, ctx.locals.seat, result)
end

return naval
