-- La Guerre de l'Empereur: the naval result (5.44-5.442), a calculator the phasing player
-- calls in his turn once a stack is found. Each side's squadrons give the larger side the
-- Naval Combat Table's modifier for the ratio between them (rounded down in favour of the
-- smaller side: 8 to 3 is 2 to 1); each side adds its other modifiers from that table;
-- both roll a die. The higher wins 3 VP and the loser loses a squadron and retreats; a tie
-- costs each side a squadron, awards no VP, and either side may end the combat, else
-- another round is fought. The combat is one procedure (@lib/steps.lua); the question after
-- a tie is a state that hands its answer back to it.

local form = include("@lib/form.lua")
local powers = include("rules/powers.lua")
local steps = include("@lib/steps.lua")
local ask = include("rules/ask.lua")

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
-- each side, each side's other modifiers (a form the phasing player fills in).
form.define("naval", "5.44 Naval combat", function(ctx, _, data)
  return {
    { key = "defender", text = "the power whose stack was found", choices = powers.enemy_choices(ctx, data.attacker) },
    { key = "attacker_squadrons", text = "the phasing side's squadrons", min = 1, max = 100 },
    { key = "defender_squadrons", text = "the other side's squadrons", min = 1, max = 100 },
    { key = "attacker_drm", text = "the phasing side's other modifiers (Naval Combat Table)", min = -10, max = 10 },
    { key = "defender_drm", text = "the other side's other modifiers (Naval Combat Table)", min = -10, max = 10 },
  }
end)

--- The phasing power's player enters the combat's figures; the caller's `on_resume` hands
--- the form's result to `naval.begin`.
function naval.enter(ctx, attacker)
  form.open(ctx, "naval", { seat = powers.voice(ctx, attacker), data = { attacker = attacker }, cancel = "No naval combat after all" })
end

--- Once the figures are in, the combat; the caller's `on_resume` gets `{naval = the
--- winner, or "tie"}`. Returns whether `result` was the naval form.
function naval.begin(ctx, attacker, result)
  local ours, l = ask.filled(result, "naval")
  if l then
    l.attacker = attacker
    ctx:call("naval_combat", l)
  end
  return ours
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

-- A round (5.441, 5.442): the winner gains 3 VP, the loser loses a squadron and retreats;
-- a tie costs each side a squadron, and unless a side has none left, the sides are asked
-- whether to fight another round.
local function fight(ctx)
  local l = ctx.locals
  local winner, a, d = naval.round(ctx, l)
  if winner == nil then
    l.attacker_squadrons, l.defender_squadrons = l.attacker_squadrons - 1, l.defender_squadrons - 1
    ctx:log(string.format("Naval combat, %s against %s: %d to %d, a tie: each loses a squadron (5.442).",
      name(ctx, l.attacker), name(ctx, l.defender), a, d))
    l.outcome = "tie"
    if l.attacker_squadrons == 0 or l.defender_squadrons == 0 then
      return nil
    end
    return steps.call("naval_tie", { attacker = l.attacker, defender = l.defender,
      attacker_squadrons = l.attacker_squadrons, defender_squadrons = l.defender_squadrons })
  end
  local victor = winner == "attacker" and l.attacker or l.defender
  local loser = winner == "attacker" and l.defender or l.attacker
  if ctx.vars.pcs_set[victor] then
    ctx:add_counter("vp." .. victor, naval.WIN_VP)
  end
  ctx:log(string.format("Naval combat, %s against %s: %d to %d: %s wins%s; %s loses a squadron and retreats (5.441).",
    name(ctx, l.attacker), name(ctx, l.defender), a, d, name(ctx, victor),
    ctx.vars.pcs_set[victor] and " 3 VP" or "", name(ctx, loser)))
  l.outcome = victor
end

-- The combat (5.44), its figures in the locals: rounds until a side wins, a side is out of
-- squadrons, or a side ends it after a tie.
naval.states.naval_combat = steps.procedure("5.44 Naval Combat", {
  {
    name = "5.441 A round of combat (5.442: another after a tie, unless a side ends it)",
    calls = "naval_tie",
    run = fight,
    resume = function(ctx, again)
      if again then
        return fight(ctx)
      end
      ctx:log("The naval combat ends after the tie (5.442).")
    end,
  },
  finish = function(ctx)
    return { naval = ctx.locals.outcome }
  end,
})

-- After a tie: the phasing side, then the other (if a player's), may end the combat; it
-- hands back whether another round is fought.
local tie = ask.question(function(ctx)
  return string.format("5.442 After the tie (%d against %d squadrons): fight another round, or end the combat",
    ctx.locals.attacker_squadrons, ctx.locals.defender_squadrons)
end, {
  { name = "again", label = "Fight another round" },
  { name = "end_combat", label = "End the combat" },
}, { end_combat = ask.result(false) }, function(ctx)
  return powers.voice(ctx, ctx.locals.asked == "defender" and ctx.locals.defender or ctx.locals.attacker)
end)
naval.states.naval_tie = tie

function tie.again(ctx)
  if ctx.locals.asked ~= "defender" and ctx.vars.pcs_set[ctx.locals.defender] then
    ctx.locals.asked = "defender"
    return
  end
  ctx:pop(true)
end

return naval
