-- La Guerre de l'Empereur: the naval result (5.44-5.442), a calculator the phasing player
-- calls in his turn once a stack is found. Each side's squadrons give the larger side the
-- Naval Combat Table's modifier for the ratio between them (rounded down in favour of the
-- smaller side: 8 to 3 is 2 to 1); each side adds its other modifiers from that table;
-- both roll a die. The higher wins 3 VP and the loser loses a squadron and retreats; a tie
-- costs each side a squadron, awards no VP, and either side may end the combat, else
-- another round is fought.

local powers = include("rules/powers.lua")

local naval = {}

naval.WIN_VP = 3

local name = powers.name

--- The strength ratio of `a` squadrons to `b`, rounded down in favour of the smaller side
--- (5.44): the larger side and its whole number ratio (1 when even or when a side has none).
function naval.ratio(a, b)
  if a == b or a == 0 or b == 0 then
    return nil, 1
  end
  if a > b then
    return "attacker", a // b
  end
  return "defender", b // a
end

-- The Naval Combat Table's modifier for a ratio: owner data, none at 1 to 1.
local function ratio_drm(ctx, ratio)
  if ratio <= 1 then
    return 0
  end
  return ctx.data.tables.naval_ratio[tostring(ratio)]
end

naval.states = {}

-- The figures, one at a time: the side the phasing player's stack fought, the squadrons of
-- each side, each side's other modifiers.
local setup = {}
naval.states.naval = setup

local FIELDS = {
  { key = "defender", text = "the power whose stack was found" },
  { key = "attacker_squadrons", text = "the phasing side's squadrons", min = 1, max = 100 },
  { key = "defender_squadrons", text = "the other side's squadrons", min = 1, max = 100 },
  { key = "attacker_drm", text = "the phasing side's other modifiers (Naval Combat Table)", min = -10, max = 10 },
  { key = "defender_drm", text = "the other side's other modifiers (Naval Combat Table)", min = -10, max = 10 },
}

function setup.prompt(ctx)
  local field = FIELDS[ctx.locals.n]
  local actions = {}
  if field.key == "defender" then
    -- A major power is fought only once war is declared on it (5.3).
    for _, power in ipairs(ctx.vars.powers) do
      if powers.at_war(ctx, power, ctx.locals.attacker) then
        actions[#actions + 1] = { name = "set", arg = power, label = name(ctx, power) }
      end
    end
  else
    actions[#actions + 1] = { name = "set", min = field.min, max = field.max, label = field.text }
  end
  actions[#actions + 1] = { name = "cancel", label = "No naval combat after all" }
  return {
    seat = ctx.locals.attacker,
    text = string.format("5.44 Naval combat, %d of %d: %s", ctx.locals.n, #FIELDS, field.text),
    actions = actions,
  }
end

--- One round with the dice: returns the winner ("attacker", "defender") or nil on a tie,
--- and the modified rolls.
function naval.round(ctx, l)
  local larger, ratio = naval.ratio(l.attacker_squadrons, l.defender_squadrons)
  local drm = ratio_drm(ctx, ratio)
  local told = { l.attacker, l.defender }
  local a = ctx:roll(10, name(ctx, l.attacker) .. "'s naval combat die", told) + l.attacker_drm
  local d = ctx:roll(10, name(ctx, l.defender) .. "'s naval combat die", told) + l.defender_drm
  if larger == "attacker" then
    a = a + drm
  elseif larger == "defender" then
    d = d + drm
  end
  if a == d then
    return nil, a, d
  end
  return a > d and "attacker" or "defender", a, d
end

local function fight(ctx)
  local l = ctx.locals
  local winner, a, d = naval.round(ctx, l)
  if winner == nil then
    l.attacker_squadrons, l.defender_squadrons = l.attacker_squadrons - 1, l.defender_squadrons - 1
    ctx:log(string.format("Naval combat, %s against %s: %d to %d, a tie: each loses a squadron (5.442).",
      name(ctx, l.attacker), name(ctx, l.defender), a, d))
    if l.attacker_squadrons == 0 or l.defender_squadrons == 0 then
      ctx:pop({ naval = "tie" })
      return
    end
    local keep = {}
    for _, key in ipairs({ "attacker", "defender", "attacker_squadrons", "defender_squadrons", "attacker_drm", "defender_drm" }) do
      keep[key] = l[key]
    end
    ctx:replace("naval_tie", keep)
    return
  end
  local victor = winner == "attacker" and l.attacker or l.defender
  local loser = winner == "attacker" and l.defender or l.attacker
  if ctx.vars.pcs_set[victor] then
    ctx:add_counter("vp." .. victor, naval.WIN_VP)
  end
  ctx:log(string.format("Naval combat, %s against %s: %d to %d: %s wins%s; %s loses a squadron and retreats (5.441).",
    name(ctx, l.attacker), name(ctx, l.defender), a, d, name(ctx, victor),
    ctx.vars.pcs_set[victor] and " 3 VP" or "", name(ctx, loser)))
  ctx:pop({ naval = victor })
end

function setup.set(ctx, value)
  local field = FIELDS[ctx.locals.n]
  ctx.locals[field.key] = value
  if ctx.locals.n < #FIELDS then
    ctx.locals.n = ctx.locals.n + 1
    return
  end
  fight(ctx)
end

function setup.cancel(ctx)
  ctx:pop(nil)
end

-- After a tie: the phasing side, then the other, may end the combat; else another round.
local tie = {}
naval.states.naval_tie = tie

function tie.prompt(ctx)
  local seat = ctx.locals.asked == "defender" and ctx.locals.defender or ctx.locals.attacker
  return {
    seat = seat,
    text = string.format("5.442 After the tie (%d against %d squadrons): fight another round, or end the combat",
      ctx.locals.attacker_squadrons, ctx.locals.defender_squadrons),
    actions = {
      { name = "again", label = "Fight another round" },
      { name = "end_combat", label = "End the combat" },
    },
  }
end

function tie.again(ctx)
  if ctx.locals.asked ~= "defender" and ctx.vars.pcs_set[ctx.locals.defender] then
    ctx.locals.asked = "defender"
    return
  end
  ctx.locals.asked = nil
  fight(ctx)
end

function tie.end_combat(ctx)
  ctx:log("The naval combat ends after the tie (5.442).")
  ctx:pop({ naval = "tie" })
end

return naval
