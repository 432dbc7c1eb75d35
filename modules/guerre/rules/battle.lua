-- La Guerre de l'Empereur: the land battle (5.61-5.622), a calculator the moving player
-- calls in his turn. The players set up the battle at the table (the Approach to
-- Battlefield rolls, additional troops, garrisons) and enter each side's figures; the rules
-- roll the Initiative, run the option cycle (attack, retreat, an Auxiliary Option, Massed
-- Batteries), resolve the attack (a d6 each, modified, times the divisions: casualties; a
-- rout for every ten, half the routed eliminated), name the victor (by the option
-- `battle.victory`: the text gives two rules, RULES-GAPS.md), award the VP and count the
-- pursuit. The battle is one procedure in the Land Battle Sequence's order
-- (@lib/steps.lua); each choice is a state that hands its answer back to it.

local form = include("@lib/form.lua")
local powers = include("rules/powers.lua")
local steps = include("@lib/steps.lua")
local ask = include("rules/ask.lua")

local battle = {}

local name = powers.name

local SIDES = { "moving", "other" }

local function other(side)
  return side == "moving" and "other" or "moving"
end

-- The figures each side enters (5.613, 5.617, 5.62).
local FIELDS = {
  { key = "divisions", text = "divisions committed", min = 1, max = 200 },
  { key = "cavalry", text = "cavalry divisions committed", min = 0, max = 200 },
  { key = "artillery", text = "artillery divisions committed", min = 0, max = 200 },
  { key = "corps", text = "Corps counters in the province (for the victor's VP)", min = 0, max = 50 },
  { key = "tactical", text = "the commander's Tactical Rating", min = 0, max = 9 },
  { key = "edge", text = "whether the Approach to Battlefield gave a Tactical Edge", choices = { { true, "Yes" }, { false, "No" } } },
}

--- The attack's die roll modifiers for `side` (5.617), with their reasons.
function battle.modifiers(f, side)
  local mine, theirs = f[side], f[other(side)]
  local drm, why = 0, {}
  local function add(n, reason)
    drm = drm + n
    why[#why + 1] = string.format("%+d %s", n, reason)
  end
  if theirs.divisions >= 2 * mine.divisions then
    add(-1, "outnumbered two to one")
  end
  if theirs.cavalry > mine.cavalry then
    add(-1, "less cavalry")
  end
  if mine.edge then
    add(1, "tactical edge")
  end
  if mine.artillery > 0 then
    add(1, "artillery")
  end
  if mine.tactical > theirs.tactical then
    add(1, "the better commander")
  end
  return drm, why
end

--- Casualties inflicted by `divisions` with a modified roll, and the routs they cause: one
--- for every ten, fractions up (5.616), never more than the `enemy` divisions.
function battle.routs(divisions, modified, enemy)
  local casualties = math.max(0, modified) * divisions
  return casualties, math.min(enemy, (casualties + 9) // 10)
end

--- Routed divisions eliminated: half, fractions up (5.618).
function battle.eliminated(routed)
  return (routed + 1) // 2
end

--- The pursuit losses (5.622): the winner's unrouted cavalry and commander's Tactical
--- Rating against the loser's; each point beyond costs the loser a division; halved
--- (fractions up) by a Rearguard, none after Night.
function battle.pursuit(winner, loser, how)
  local diff = (winner.cavalry + winner.tactical) - (loser.cavalry + loser.tactical)
  if diff <= 0 or how == "night" then
    return 0
  end
  if how == "rearguard" then
    return (diff + 1) // 2
  end
  return diff
end

battle.states = {}

-- The figures, one at a time: the other side's power, then each side's (a form the moving
-- side's player fills in; nothing in it is secret once the battle is fought).
form.define("land_battle", "5.61 Land battle", function(ctx, values, data)
  local fields = { { key = "power", text = "the power whose army the moving army fights", choices = powers.enemy_choices(ctx, data.moving) } }
  for _, side in ipairs(SIDES) do
    local whose = side == "moving" and data.moving or values.power
    for _, field in ipairs(FIELDS) do
      fields[#fields + 1] = {
        key = side .. "." .. field.key,
        text = string.format("%s's %s", whose and name(ctx, whose) or "the other side", field.text),
        min = field.min,
        max = field.max,
        choices = field.choices,
      }
    end
  end
  return fields
end)

--- The moving power's player enters the battle's figures; the caller's `on_resume` hands
--- the form's result to `battle.begin`.
function battle.enter(ctx, moving)
  form.open(ctx, "land_battle", { seat = powers.voice(ctx, moving), data = { moving = moving }, cancel = "No battle after all" })
end

--- Once the figures are in, the battle; the caller's `on_resume` gets its result (the
--- winner, its VP, the pursuit). Returns whether `result` was the battle's form.
function battle.begin(ctx, moving, result)
  local ours, values = ask.filled(result, "land_battle")
  if values then
    local f = { moving = {}, other = {} }
    for key, value in pairs(values) do
      local side, field = key:match("^(%a+)%.(%a+)$")
      if side then
        f[side][field] = value
      end
    end
    ctx:call("land_battle", { f = f, powers = { moving = moving, other = values.power } })
  end
  return ours
end

-- The side that chooses in option turn `turn` (5.612 steps 4-6): the Initiative side, the
-- other side, then the Initiative side again.
local function chooser(l, turn)
  return turn == 2 and other(l.initiative) or l.initiative
end

-- 5.615: a d6 each plus the commander's Tactical Rating; a tie is rolled again.
local function initiative(ctx)
  local l = ctx.locals
  local f, sides = l.f, l.powers
  local first
  repeat
    local m = ctx:roll(6, name(ctx, sides.moving) .. "'s Initiative") + f.moving.tactical
    local o = ctx:roll(6, name(ctx, sides.other) .. "'s Initiative") + f.other.tactical
    if m ~= o then
      first = m > o and "moving" or "other"
    end
  until first
  l.initiative = first
  ctx:log(string.format("Land battle, %s against %s: %s has the Initiative.", name(ctx, sides.moving), name(ctx, sides.other), name(ctx, sides[first])))
end

-- The battle is decided: `winner` (a side) wins it, `how` ("attack", "retreat", or the
-- Auxiliary Option a side withdrew under).
local function decide(l, winner, how)
  l.winner, l.how = winner, how
end

-- Massed Batteries: a d10 an artillery division, two enemy divisions lost for each 10.
local function batteries(ctx, side)
  local l = ctx.locals
  local hits = 0
  for _ = 1, l.f[side].artillery do
    if ctx:roll(10, name(ctx, l.powers[side]) .. "'s massed batteries") == 10 then
      hits = hits + 1
    end
  end
  local enemy = l.f[other(side)]
  local gone = math.min(enemy.divisions, 2 * hits)
  enemy.divisions = enemy.divisions - gone
  ctx:log(string.format("Massed batteries: %d hit(s); %s loses %d division(s).", hits, name(ctx, l.powers[other(side)]), gone))
  if enemy.divisions == 0 then
    decide(l, side, "attack")
  end
end

-- A roll on the Auxiliary Options Table: a bombardment costs the enemy two divisions (if
-- the side has artillery); Night or Rearguard lets the side retreat now, which it is asked.
-- Reinforcements are moved in at the table; their divisions are not counted here
-- (RULES-GAPS.md).
local function auxiliary(ctx, side)
  local l = ctx.locals
  local roll = ctx:roll(10, name(ctx, l.powers[side]) .. "'s Auxiliary Option")
  local result = ctx.data.tables.auxiliary_options[tostring(roll)]
  ctx:log(string.format("Auxiliary Option (%d): %s.", roll, result))
  if result == "bombardment" then
    if l.f[side].artillery > 0 then
      local enemy = l.f[other(side)]
      enemy.divisions = math.max(0, enemy.divisions - 2)
      if enemy.divisions == 0 then
        decide(l, side, "attack")
      end
    end
  elseif result == "night" or result == "rearguard" then
    l.may_withdraw = result
    return steps.call("land_withdraw", { power = l.powers[side], may_withdraw = result })
  end
end

-- The attack (5.616): a d6 each, modified (5.617), times the divisions: the casualties,
-- a rout for every ten; then the victor.
local function attack(ctx)
  local l = ctx.locals
  local rolls = {}
  for _, side in ipairs(SIDES) do
    local drm, why = battle.modifiers(l.f, side)
    local die = ctx:roll(6, name(ctx, l.powers[side]) .. "'s attack")
    local casualties, routs = battle.routs(l.f[side].divisions, die + drm, l.f[other(side)].divisions)
    rolls[side] = { die = die, drm = drm, casualties = casualties, routs = routs }
    ctx:log(string.format("%s: %d%s = %d, times %d divisions: %d casualties, %d rout(s).", name(ctx, l.powers[side]), die,
      #why > 0 and (" " .. table.concat(why, " ")) or "", die + drm, l.f[side].divisions, casualties, routs))
  end
  -- Each side's routed divisions (inflicted by the other), half of them eliminated; the
  -- routed are counted against infantry and artillery before cavalry, which pursues
  -- unrouted (RULES-GAPS.md).
  local loss = {}
  for _, side in ipairs(SIDES) do
    local routed = rolls[other(side)].routs
    loss[side] = { routed = routed, eliminated = battle.eliminated(routed) }
    local others = l.f[side].divisions - l.f[side].cavalry
    l.f[side].cavalry = l.f[side].cavalry - math.max(0, routed - others)
  end
  local winner
  if ctx.vars.options["battle.victory"] == "routs" then
    -- 5.621: the army with more units routed and eliminated loses.
    local m = loss.moving.routed + loss.moving.eliminated
    local o = loss.other.routed + loss.other.eliminated
    winner = (m == o) and l.initiative or (m < o and "moving" or "other")
  else
    -- 5.616 step 5: the army that inflicted more casualties wins; a tie to the Initiative.
    local m, o = rolls.moving.casualties, rolls.other.casualties
    winner = (m == o) and l.initiative or (m > o and "moving" or "other")
  end
  decide(l, winner, "attack")
end

-- 5.621, 5.622: the victor's VP (the loser's Corps; none after Night or a Rearguard), the
-- pursuit's losses. An allied army's VP are shared among the allies in the battle (below).
local function victory(ctx)
  local l = ctx.locals
  local winner, how = l.winner, l.how
  local loser = other(winner)
  local vp = 0
  if how ~= "night" and how ~= "rearguard" then
    vp = l.f[loser].corps
  end
  local lost = battle.pursuit(l.f[winner], l.f[loser], how)
  local power = l.powers[winner]
  ctx:log(string.format("%s wins the battle: %d VP; %s retreats and loses %d division(s) to the pursuit.",
    name(ctx, power), vp, name(ctx, l.powers[loser]), lost))
  l.result = { winner = power, vp = vp, pursuit = lost }
  local allies = powers.allies(ctx, power)
  if vp > 0 and #allies > 0 then
    l.allies, l.present = allies, { power }
    return
  end
  battle.award(ctx, { [power] = vp })
end

--- Gives each power its share of a victory's VP; an NPC's share is lost (5.621).
function battle.award(ctx, shares)
  for _, power in ipairs(ctx.vars.powers) do
    if shares[power] and ctx.vars.pcs_set[power] then
      ctx:add_counter("vp." .. power, shares[power])
    end
  end
end

--- The shares of `vp` among the `present` allies (5.621): as even as possible, the
--- remainder, `extra`, given by the commanding player (a list of powers, one a point).
function battle.shares(vp, present, extra)
  local shares = {}
  for _, power in ipairs(present) do
    shares[power] = vp // #present
  end
  for _, power in ipairs(extra) do
    shares[power] = shares[power] + 1
  end
  return shares
end

-- 5.621: the commanding player gives the points left over, one at a time.
local function left_over(ctx)
  local l = ctx.locals
  if #l.extra < l.result.vp % #l.present then
    return steps.call("battle_remainder", { winner = l.result.winner, vp = l.result.vp, present = l.present, given = #l.extra })
  end
end

-- 5.621: the allied army's VP, shared.
local function share_out(ctx)
  local l = ctx.locals
  local shares = battle.shares(l.result.vp, l.present, l.extra)
  local words = {}
  for _, p in ipairs(l.present) do
    words[#words + 1] = string.format("%s %d%s", name(ctx, p), shares[p], ctx.vars.pcs_set[p] and "" or " (lost: an NPC's)")
  end
  ctx:log(string.format("The %d VP are shared (5.621): %s.", l.result.vp, table.concat(words, ", ")))
  battle.award(ctx, shares)
end

-- The Land Battle Sequence (5.612), once the figures are in: the Initiative, the option
-- turns until one ends the battle, the victor's VP and the pursuit. It hands back the
-- winner, its VP and the pursuit's losses.
battle.states.land_battle = steps.procedure("5.612 Land Battle Sequence", {
  { name = "5.615 Initiative", run = initiative },
  {
    name = "5.616 Battle Options: the Initiative side, the other side, then the Initiative side again",
    each = function()
      return { 1, 2, 3 }
    end,
    skip = function(ctx)
      return ctx.locals.winner ~= nil
    end,
    label = function(ctx, turn)
      return name(ctx, ctx.locals.powers[chooser(ctx.locals, turn)])
    end,
    calls = { "land_options", "land_withdraw" },
    run = function(ctx, turn)
      local l = ctx.locals
      return steps.call("land_options", { f = l.f, powers = l.powers, side = chooser(l, turn), turn = turn })
    end,
    resume = function(ctx, answer, turn)
      local l = ctx.locals
      local side = chooser(l, turn)
      if answer.option == "attack" then
        attack(ctx)
      elseif answer.option == "retreat" then
        -- A retreat concedes the battle (5.621).
        decide(l, other(side), "retreat")
      elseif answer.option == "batteries" then
        batteries(ctx, side)
      elseif answer.option == "auxiliary" then
        return auxiliary(ctx, side)
      elseif answer.withdraw then
        decide(l, other(side), l.may_withdraw)
      else
        l.may_withdraw = nil
      end
    end,
  },
  { name = "5.621, 5.622 Victory and Pursuit", run = victory },
  {
    name = "5.621 An allied army: which allies had divisions in the battle",
    each = steps.listed("allies"),
    label = name,
    calls = "battle_split",
    run = function(ctx, ally)
      local l = ctx.locals
      return steps.call("battle_split", { winner = l.result.winner, vp = l.result.vp, ally = ally })
    end,
    resume = function(ctx, present, ally)
      if present then
        table.insert(ctx.locals.present, ally)
      end
    end,
  },
  {
    name = "5.621 The points left over, given by the commanding player",
    calls = "battle_remainder",
    run = function(ctx)
      if ctx.locals.allies then
        ctx.locals.extra = {}
        return left_over(ctx)
      end
    end,
    resume = function(ctx, power)
      table.insert(ctx.locals.extra, power)
      return left_over(ctx)
    end,
  },
  {
    name = "5.621 The allies' shares",
    run = function(ctx)
      if ctx.locals.allies then
        share_out(ctx)
      end
    end,
  },
  finish = function(ctx)
    return ctx.locals.result
  end,
})

-- An option turn (5.612 steps 4-6): the side may attack, retreat, roll an Auxiliary Option
-- or fire Massed Batteries; in the third turn it must attack or retreat. It hands back the
-- option chosen.
battle.states.land_options = ask.question(function(ctx)
  local l = ctx.locals
  return string.format("5.612 Land battle (%d against %d divisions): %s's option", l.f.moving.divisions, l.f.other.divisions, name(ctx, l.powers[l.side]))
end, function(ctx)
  local l = ctx.locals
  local actions = {
    { name = "attack", label = "Attack" },
    { name = "retreat", label = "Retreat" },
  }
  if l.turn < 3 then
    actions[#actions + 1] = { name = "auxiliary", label = "Roll on the Auxiliary Options Table" }
    if l.f[l.side].artillery > 0 then
      actions[#actions + 1] = { name = "batteries", label = "Massed Batteries: a d10 an artillery division" }
    end
  end
  return actions
end, {
  attack = ask.result({ option = "attack" }),
  retreat = ask.result({ option = "retreat" }),
  auxiliary = ask.result({ option = "auxiliary" }),
  batteries = ask.result({ option = "batteries" }),
}, function(ctx)
  return powers.voice(ctx, ctx.locals.powers[ctx.locals.side])
end)

-- Night or Rearguard: the side that rolled it may retreat now; it hands back whether it
-- does.
battle.states.land_withdraw = ask.question(function(ctx)
  return string.format("Auxiliary Option %s: retreat now (no VP to the victor)?", ctx.locals.may_withdraw)
end, {
  { name = "withdraw", label = "Retreat" },
  { name = "stay", label = "Stay and fight on" },
}, { withdraw = ask.result({ withdraw = true }), stay = ask.result({ withdraw = false }) }, function(ctx)
  return powers.voice(ctx, ctx.locals.power)
end)

-- The seat of the allied army's commanding player: the victor's voice.
local function commander(ctx)
  return powers.voice(ctx, ctx.locals.winner)
end

-- 5.621: whether an ally had divisions in the allied army's victory (garrisons count),
-- asked of the commanding player; it hands back the answer.
battle.states.battle_split = ask.question(function(ctx)
  local l = ctx.locals
  return string.format("5.621 %s's allied army wins %d VP: had %s divisions in the battle (garrisons count)?", name(ctx, l.winner), l.vp, name(ctx, l.ally))
end, {
  { name = "present", arg = true, label = "Yes" },
  { name = "present", arg = false, label = "No" },
}, { present = ask.given }, commander)

-- 5.621: who has the next point left over, given by the commanding player.
battle.states.battle_remainder = ask.question(function(ctx)
  local l = ctx.locals
  return string.format("5.621 %d VP among %s: %d each; who has the %s point left over?", l.vp, powers.names(ctx, l.present),
    l.vp // #l.present, l.given == 0 and "first" or "next")
end, function(ctx)
  local actions = {}
  for _, p in ipairs(ctx.locals.present) do
    actions[#actions + 1] = { name = "extra", arg = p, label = name(ctx, p) }
  end
  return actions
end, { extra = ask.given }, commander)

return battle
