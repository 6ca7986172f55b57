package org.idgen.hibernate;

import org.idgen.Ksuid;

/** The Hibernate type of {@link Ksuid}, applied to every attribute of that class by {@link IdgenTypeContributor}. */
public final class KsuidType extends IdgenUserType<Ksuid>
{
	/** The type, as Hibernate instantiates it. */
	public KsuidType()
	{
		super(Ksuid.class, Ksuid.TYPE, Ksuid::parse);
	}
}
