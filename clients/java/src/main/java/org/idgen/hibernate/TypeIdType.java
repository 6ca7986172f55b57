package org.idgen.hibernate;

import org.idgen.TypeId;

/** The Hibernate type of {@link TypeId}, applied to every attribute of that class by {@link IdgenTypeContributor}. */
public final class TypeIdType extends IdgenUserType<TypeId>
{
	/** The type, as Hibernate instantiates it. */
	public TypeIdType()
	{
		super(TypeId.class, TypeId.TYPE, TypeId::parse);
	}
}
