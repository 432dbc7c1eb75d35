-- La Guerre de l'Empereur: the land battle (5.61-5.622), a calculator the moving player
-- calls in his turn. The players set up the battle at the table (the Approach to
-- Battlefield rolls, additional troops, garrisons) and enter each side's figures; the rules
-- roll the Initiative, run the option cycle (attack, retreat, an Auxiliary Option, Massed
-- Batteries), resolve the attack (a d6 each, modified, times the divisions: casualties; a
-- rout for every ten, half the routed eliminated), name the victor (by the option
-- `battle.victory`: the text gives two rules, RULES-GAPS.md), award the VP and count the
-- pursuit.

local form = include("@lib/form.lua")
local powers = include("rules/powers.lua")

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
  local enemies = {}
  -- A major power is fought only once war is declared on it (5.3).
  for _, power in ipairs(powers.enemies(ctx, data.moving)) do
    enemies[#enemies + 1] = { power, name(ctx, power) }
  end
  local fields = { { key = "power", text = "the power whose army the moving army fights", choices = enemies } }
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

--- Once the figures are in: the Initiative (5.615: a d6 each plus the commander's Tactical
--- Rating; a tie is rolled again), then the option cycle. Returns whether `result` was the
--- battle's form.
function battle.begin(ctx, moving, result)
  if not (result and result.form == "land_battle") then
    return false
  end
  if result.cancelled then
    return true
  end
  local f = { moving = {}, other = {} }
  for key, value in pairs(result.values) do
    local side, field = key:match("^(%a+)%.(%a+)$")
    if side then
      f[side][field] = value
    end
  end
  local sides = { moving = moving, other = result.values.power }
  local first
  repeat
    local m = ctx:roll(6, name(ctx, sides.moving) .. "'s Initiative") + f.moving.tactical
    local o = ctx:roll(6, name(ctx, sides.other) .. "'s Initiative") + f.other.tactical
    if m ~= o then
      first = m > o and "moving" or "other"
    end
  until first
  ctx:log(string.format("Land battle, %s against %s: %s has the Initiative.", name(ctx, sides.moving), name(ctx, sides.other), name(ctx, sides[first])))
  ctx:call("land_options", { f = f, powers = sides, initiative = first, step = 1 })
  return true
end

-- The option cycle (5.612 steps 4-6): the Initiative side, then the other side, may attack,
-- retreat, roll an Auxiliary Option or fire Massed Batteries; then the Initiative side
-- must attack or retreat.
local options = {}
battle.states.land_options = options

local function chooser(l)
  return l.step == 2 and other(l.initiative) or l.initiative
end

function options.prompt(ctx)
  local l = ctx.locals
  local side = chooser(l)
  local actions = {
    { name = "attack", label = "Attack" },
    { name = "retreat", label = "Retreat" },
  }
  if l.step < 3 then
    actions[#actions + 1] = { name = "auxiliary", label = "Roll on the Auxiliary Options Table" }
    if l.f[side].artillery > 0 then
      actions[#actions + 1] = { name = "batteries", label = "Massed Batteries: a d10 an artillery division" }
    end
  end
  return {
    seat = powers.voice(ctx, l.powers[side]),
    text = string.format("5.612 Land battle (%d against %d divisions): %s's option", l.f.moving.divisions, l.f.other.divisions, name(ctx, l.powers[side])),
    actions = actions,
  }
end

local function finish(ctx, winner, how)
  local l = ctx.locals
  local loser = other(winner)
  local vp = 0
  if how ~= "night" and how ~= "rearguard" then
    vp = l.f[loser].corps
  end
  local lost = battle.pursuit(l.f[winner], l.f[loser], how)
  local power = l.powers[winner]
  ctx:log(string.format("%s wins the battle: %d VP; %s retreats and loses %d division(s) to the pursuit.",
    name(ctx, power), vp, name(ctx, l.powers[loser]), lost))
  local result = { winner = power, vp = vp, pursuit = lost }
  local allies = {}
  for _, member in ipairs(powers.alliance(ctx, power)) do
    if member ~= power then
      allies[#allies + 1] = member
    end
  end
  if vp > 0 and #allies > 0 then
    ctx:replace("battle_split", { result = result, allies = allies, present = { power }, n = 1 })
    return
  end
  battle.award(ctx, { [power] = vp })
  ctx:pop(result)
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

-- 5.621: the VP of an allied army's victory, split among the allies that had divisions in
-- the battle; the commanding player gives the remainder, a point at a time.
local split = {}
battle.states.battle_split = split

function split.prompt(ctx)
  local l = ctx.locals
  local power = l.result.winner
  local seat = ctx.vars.npc_ally[power] or ctx.vars.controller[power] or power
  if l.n <= #l.allies then
    local ally = l.allies[l.n]
    return {
      seat = seat,
      text = string.format("5.621 %s's allied army wins %d VP: had %s divisions in the battle (garrisons count)?", name(ctx, power), l.result.vp, name(ctx, ally)),
      actions = {
        { name = "present", arg = true, label = "Yes" },
        { name = "present", arg = false, label = "No" },
      },
    }
  end
  local actions = {}
  for _, p in ipairs(l.present) do
    actions[#actions + 1] = { name = "extra", arg = p, label = name(ctx, p) }
  end
  return {
    seat = seat,
    text = string.format("5.621 %d VP among %s: %d each; who has the %s point left over?", l.result.vp, powers.names(ctx, l.present),
      l.result.vp // #l.present, #l.extra == 0 and "first" or "next"),
    actions = actions,
  }
end

local function share_out(ctx)
  local l = ctx.locals
  if #l.extra < l.result.vp % #l.present then
    return
  end
  local shares = battle.shares(l.result.vp, l.present, l.extra)
  local words = {}
  for _, p in ipairs(l.present) do
    words[#words + 1] = string.format("%s %d%s", name(ctx, p), shares[p], ctx.vars.pcs_set[p] and "" or " (lost: an NPC's)")
  end
  ctx:log(string.format("The %d VP are shared (5.621): %s.", l.result.vp, table.concat(words, ", ")))
  battle.award(ctx, shares)
  ctx:pop(l.result)
end

function split.present(ctx, yes)
  local l = ctx.locals
  if yes then
    l.present[#l.present + 1] = l.allies[l.n]
  end
  l.n = l.n + 1
  if l.n > #l.allies then
    l.extra = {}
    share_out(ctx)
  end
end

function split.extra(ctx, power)
  local l = ctx.locals
  l.extra[#l.extra + 1] = power
  share_out(ctx)
end

local function next_step(ctx)
  local l = ctx.locals
  l.step = l.step + 1
end

function options.retreat(ctx)
  -- A retreat concedes the battle (5.621).
  finish(ctx, other(chooser(ctx.locals)), "retreat")
end

function options.batteries(ctx)
  local l = ctx.locals
  local side = chooser(l)
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
    finish(ctx, side, "attack")
    return
  end
  next_step(ctx)
end

function options.auxiliary(ctx)
  local l = ctx.locals
  local side = chooser(l)
  local roll = ctx:roll(10, name(ctx, l.powers[side]) .. "'s Auxiliary Option")
  local result = ctx.data.tables.auxiliary_options[tostring(roll)]
  ctx:log(string.format("Auxiliary Option (%d): %s.", roll, result))
  if result == "bombardment" then
    if l.f[side].artillery > 0 then
      local enemy = l.f[other(side)]
      enemy.divisions = math.max(0, enemy.divisions - 2)
      if enemy.divisions == 0 then
        finish(ctx, side, "attack")
        return
      end
    end
  elseif result == "night" or result == "rearguard" then
    l.may_withdraw = result
    ctx:replace("land_withdraw", l)
    return
  end
  -- Reinforcements are moved in at the table; their divisions are not counted here
  -- (RULES-GAPS.md).
  next_step(ctx)
end

function options.attack(ctx)
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
  finish(ctx, winner, "attack")
end

-- Night or Rearguard: the side that rolled it may retreat now.
local withdraw = {}
battle.states.land_withdraw = withdraw

function withdraw.prompt(ctx)
  local l = ctx.locals
  return {
    seat = powers.voice(ctx, l.powers[chooser(l)]),
    text = string.format("Auxiliary Option %s: retreat now (no VP to the victor)?", l.may_withdraw),
    actions = {
      { name = "withdraw", label = "Retreat" },
      { name = "stay", label = "Stay and fight on" },
    },
  }
end

function withdraw.withdraw(ctx)
  local l = ctx.locals
  finish(ctx, other(chooser(l)), l.may_withdraw)
end

function withdraw.stay(ctx)
  local l = ctx.locals
  l.may_withdraw = nil
  l.step = l.step + 1
  ctx:replace("land_options", l)
end

return battle
